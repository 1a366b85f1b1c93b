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
  // The complete state, for checkpoints.
  struct State {
    std::int64_t count = 0;
    double sum_squared_error = 0.0;
    double sum_absolute_error = 0.0;
    // Welford's running mean and sum of squared deviations of the targets.
    double target_mean = 0.0;
    double target_squared_deviations = 0.0;
  };

  RegressionMetrics() = default;
  explicit RegressionMetrics(const State& state) : state_(state) {}

  void Add(double prediction, double target);
  // Adds the samples of `other`, which are not among these (the pairwise
  // update of the mean and squared deviations of Chan, Golub & LeVeque).
  void Merge(const RegressionMetrics& other);
  // Takes out the samples of `part`, which are among these: the inverse of
  // Merge(). REQUIRES: part.count() <= count().
  void Remove(const RegressionMetrics& part);

  const State& state() const { return state_; }

  std::int64_t count() const { return state_.count; }
  double sum_squared_error() const { return state_.sum_squared_error; }
  // Each is NaN before the first sample.
  double mean_squared_error() const;
  double root_mean_squared_error() const;
  double mean_absolute_error() const;
  // 1 - SSE / SST with SST around the running mean of the targets; NaN while
  // the targets have had no spread.
  double r_squared() const;

 private:
  State state_;
};

}  // namespace rffstream

#endif  // RFFSTREAM_REGRESSION_METRICS_H_
