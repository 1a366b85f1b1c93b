#include "rffstream/regression_metrics.h"

#include <algorithm>
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

void RegressionMetrics::Merge(const RegressionMetrics& other) {
  const State& b = other.state_;
  if (b.count == 0) return;
  const double total = static_cast<double>(state_.count + b.count);
  const double delta = b.target_mean - state_.target_mean;
  state_.target_squared_deviations += b.target_squared_deviations +
                                      delta * delta * static_cast<double>(state_.count) *
                                          static_cast<double>(b.count) / total;
  state_.target_mean += delta * static_cast<double>(b.count) / total;
  state_.count += b.count;
  state_.sum_squared_error += b.sum_squared_error;
  state_.sum_absolute_error += b.sum_absolute_error;
}

void RegressionMetrics::Remove(const RegressionMetrics& part) {
  const State& b = part.state_;
  if (b.count == 0) return;
  const std::int64_t rest = state_.count - b.count;
  if (rest <= 0) {
    state_ = State();
    return;
  }
  // Merge() of the rest with `part` gave these; solve it for the rest.
  const double rest_mean = (static_cast<double>(state_.count) * state_.target_mean -
                            static_cast<double>(b.count) * b.target_mean) /
                           static_cast<double>(rest);
  const double delta = b.target_mean - rest_mean;
  state_.target_squared_deviations = std::max(
      0.0, state_.target_squared_deviations - b.target_squared_deviations -
               delta * delta * static_cast<double>(rest) * static_cast<double>(b.count) /
                   static_cast<double>(state_.count));
  state_.target_mean = rest_mean;
  state_.count = rest;
  state_.sum_squared_error = std::max(0.0, state_.sum_squared_error - b.sum_squared_error);
  state_.sum_absolute_error = std::max(0.0, state_.sum_absolute_error - b.sum_absolute_error);
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
