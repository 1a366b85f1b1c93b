#include "rffstream/regression_metrics.h"

#include <cmath>
#include <limits>

namespace rffstream {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

void RegressionMetrics::Add(double prediction, double target) {
  const double error = target - prediction;
  ++count_;
  sum_squared_error_ += error * error;
  sum_absolute_error_ += std::abs(error);
  const double delta = target - target_mean_;
  target_mean_ += delta / static_cast<double>(count_);
  target_squared_deviations_ += delta * (target - target_mean_);
}

double RegressionMetrics::mean_squared_error() const {
  return count_ == 0 ? kNaN : sum_squared_error_ / static_cast<double>(count_);
}

double RegressionMetrics::root_mean_squared_error() const {
  return std::sqrt(mean_squared_error());
}

double RegressionMetrics::mean_absolute_error() const {
  return count_ == 0 ? kNaN : sum_absolute_error_ / static_cast<double>(count_);
}

double RegressionMetrics::r_squared() const {
  if (target_squared_deviations_ <= 0.0) return kNaN;
  return 1.0 - sum_squared_error_ / target_squared_deviations_;
}

}  // namespace rffstream
