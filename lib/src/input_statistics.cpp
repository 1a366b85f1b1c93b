#include "rffstream/input_statistics.h"

#include <cmath>

namespace rffstream {

InputStatistics::InputStatistics(int dimension)
    : means_(dimension, 0.0), squared_deviations_(dimension, 0.0) {}

void InputStatistics::Add(std::span<const double> x) {
  ++count_;
  const double inverse_count = 1.0 / static_cast<double>(count_);
  for (size_t j = 0; j < means_.size(); ++j) {
    const double delta = x[j] - means_[j];
    means_[j] += delta * inverse_count;
    squared_deviations_[j] += delta * (x[j] - means_[j]);
  }
}

std::vector<double> InputStatistics::StandardDeviations() const {
  std::vector<double> deviations(means_.size(), 1.0);
  if (count_ < 2) return deviations;
  for (size_t j = 0; j < means_.size(); ++j) {
    const double deviation = std::sqrt(squared_deviations_[j] / static_cast<double>(count_));
    if (deviation > 0.0) deviations[j] = deviation;
  }
  return deviations;
}

}  // namespace rffstream
