#include "rffstream/input_statistics.h"

#include <cmath>

namespace rffstream {
namespace {

bool IsMissing(double value) { return std::isnan(value); }

}  // namespace

InputStatistics::InputStatistics(int dimension)
    : counts_(dimension, 0), means_(dimension, 0.0), squared_deviations_(dimension, 0.0) {}

bool InputStatistics::Add(std::span<const double> x) {
  // Check first, so that a refused x leaves no trace.
  for (size_t j = 0; j < means_.size(); ++j) {
    if (IsMissing(x[j])) continue;
    const double delta = x[j] - means_[j];
    const double mean = means_[j] + delta * (1.0 / static_cast<double>(counts_[j] + 1));
    if (!std::isfinite(squared_deviations_[j] + delta * (x[j] - mean))) return false;
  }
  ++count_;
  for (size_t j = 0; j < means_.size(); ++j) {
    if (IsMissing(x[j])) continue;
    const double delta = x[j] - means_[j];
    means_[j] += delta * (1.0 / static_cast<double>(++counts_[j]));
    squared_deviations_[j] += delta * (x[j] - means_[j]);
  }
  return true;
}

std::vector<double> InputStatistics::StandardDeviations() const {
  std::vector<double> deviations(means_.size(), 1.0);
  for (size_t j = 0; j < means_.size(); ++j) {
    if (counts_[j] < 2) continue;
    const double deviation = std::sqrt(squared_deviations_[j] / static_cast<double>(counts_[j]));
    if (deviation > 0.0) deviations[j] = deviation;
  }
  return deviations;
}

}  // namespace rffstream
