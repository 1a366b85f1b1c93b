#include "rffstream/input_statistics.h"

#include <cmath>

namespace rffstream {

InputStatistics::InputStatistics(int dimension)
    : means_(dimension, 0.0), squared_deviations_(dimension, 0.0) {}

bool InputStatistics::Add(std::span<const double> x) {
  const double inverse_count = 1.0 / static_cast<double>(count_ + 1);
  // Check first, so that a refused x leaves no trace.
  for (size_t j = 0; j < means_.size(); ++j) {
    const double delta = x[j] - means_[j];
    const double mean = means_[j] + delta * inverse_count;
    if (!std::isfinite(squared_deviations_[j] + delta * (x[j] - mean))) return false;
  }
  ++count_;
  for (size_t j = 0; j < means_.size(); ++j) {
    const double delta = x[j] - means_[j];
    means_[j] += delta * inverse_count;
    squared_deviations_[j] += delta * (x[j] - means_[j]);
  }
  return true;
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
