#include "rffstream/classification_metrics.h"

#include <algorithm>
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

std::vector<ClassificationMetrics::Confusion> ClassificationMetrics::WorstConfusions(
    int count) const {
  std::vector<Confusion> mistakes;
  for (int actual = 0; actual < num_classes_; ++actual) {
    for (int predicted = 0; predicted < num_classes_; ++predicted) {
      const std::int64_t n = confusion(actual, predicted);
      if (actual != predicted && n > 0) mistakes.push_back({actual, predicted, n});
    }
  }
  const auto larger = [](const Confusion& a, const Confusion& b) { return a.count > b.count; };
  const std::size_t kept = std::min(mistakes.size(), static_cast<std::size_t>(std::max(count, 0)));
  // Stable: equal counts keep their (true class, predicted class) order.
  std::stable_sort(mistakes.begin(), mistakes.end(), larger);
  mistakes.resize(kept);
  return mistakes;
}

}  // namespace rffstream
