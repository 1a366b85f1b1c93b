#include "rffstream/regression_metrics.h"

#include <cmath>
#include <limits>

namespace rffstream {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

void RegressionMetrics::Add(double prediction, double target) {
  const double error = target - prediction;
  ++state_.count;
  state_.sum_squared_error += error * error;
  state_.sum_absolute_error += std::abs(error);
  const double delta = target - state_.target_mean;
  state_.target_mean += delta / static_cast<double>(state_.count);
  state_.target_squared_deviations += delta * (target - state_.target_mean);
}

double RegressionMetrics::mean_squared_error() const {
  return state_.count == 0 ? kNaN : state_.sum_squared_error / static_cast<double>(state_.count);
}

double RegressionMetrics::root_mean_squared_error() const {
  return std::sqrt(mean_squared_error());
}

double RegressionMetrics::mean_absolute_error() const {
  return state_.count == 0 ? kNaN : state_.sum_absolute_error / static_cast<double>(state_.count);
}

double RegressionMetrics::r_squared() const {
  if (state_.target_squared_deviations <= 0.0) return kNaN;
  return 1.0 - state_.sum_squared_error / state_.target_squared_deviations;
}

}  // namespace rffstream
