// File: rffstream/regression_metrics.h
//
// Running progressive-validation metrics over (prediction, target) pairs:
// mean squared and absolute error and R², in O(1) memory. Add the a-priori
// predictions that Learner::Learn() returns.
//
//   rffstream::RegressionMetrics metrics;
//   metrics.Add(learner.Learn(x, y), y);
//   std::printf("MSE %g, R² %g\n", metrics.mean_squared_error(), metrics.r_squared());
#ifndef RFFSTREAM_REGRESSION_METRICS_H_
#define RFFSTREAM_REGRESSION_METRICS_H_

#include <cstdint>

namespace rffstream {

class RegressionMetrics {
 public:
  void Add(double prediction, double target);

  std::int64_t count() const { return count_; }
  double sum_squared_error() const { return sum_squared_error_; }
  // Each is NaN before the first sample.
  double mean_squared_error() const;
  double root_mean_squared_error() const;
  double mean_absolute_error() const;
  // 1 - SSE / SST with SST around the running mean of the targets; NaN while
  // the targets have had no spread.
  double r_squared() const;

 private:
  std::int64_t count_ = 0;
  double sum_squared_error_ = 0.0;
  double sum_absolute_error_ = 0.0;
  // Welford's running mean and sum of squared deviations of the targets.
  double target_mean_ = 0.0;
  double target_squared_deviations_ = 0.0;
};

}  // namespace rffstream

#endif  // RFFSTREAM_REGRESSION_METRICS_H_
