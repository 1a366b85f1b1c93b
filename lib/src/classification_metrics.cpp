#include "rffstream/classification_metrics.h"

#include <limits>

namespace rffstream {

double ClassificationMetrics::accuracy() const {
  if (count_ == 0) return std::numeric_limits<double>::quiet_NaN();
  return static_cast<double>(correct_) / static_cast<double>(count_);
}

}  // namespace rffstream
