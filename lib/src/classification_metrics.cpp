#include "rffstream/classification_metrics.h"

#include <limits>
#include <utility>

namespace rffstream {

ClassificationMetrics::ClassificationMetrics(int num_classes, std::vector<std::int64_t> counts)
    : num_classes_(num_classes), confusion_(std::move(counts)) {
  for (int actual = 0; actual < num_classes_; ++actual) {
    for (int predicted = 0; predicted < num_classes_; ++predicted) {
      count_ += confusion(actual, predicted);
    }
    correct_ += confusion(actual, actual);
  }
}

double ClassificationMetrics::accuracy() const {
  if (count_ == 0) return std::numeric_limits<double>::quiet_NaN();
  return static_cast<double>(correct_) / static_cast<double>(count_);
}

}  // namespace rffstream
