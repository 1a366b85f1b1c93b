#include "rffstream/regression_metrics.h"

#include <catch2/catch.hpp>
#include <cmath>

namespace rffstream {
namespace {

TEST_CASE("Metrics match their definitions", "[metrics]") {
  RegressionMetrics metrics;
  CHECK(std::isnan(metrics.mean_squared_error()));
  const double predictions[] = {1.0, 2.0, 2.5, 5.0};
  const double targets[] = {1.5, 1.0, 3.0, 4.0};
  for (int i = 0; i < 4; ++i) metrics.Add(predictions[i], targets[i]);
  // errors 0.5, -1, 0.5, -1: SSE 2.5; targets mean 2.375, SST 5.6875.
  CHECK(metrics.count() == 4);
  CHECK(metrics.mean_squared_error() == Approx(2.5 / 4));
  CHECK(metrics.root_mean_squared_error() == Approx(std::sqrt(2.5 / 4)));
  CHECK(metrics.mean_absolute_error() == Approx(3.0 / 4));
  CHECK(metrics.r_squared() == Approx(1.0 - 2.5 / 5.6875));
}

TEST_CASE("R squared is undefined while the targets are constant", "[metrics]") {
  RegressionMetrics metrics;
  metrics.Add(0.0, 1.0);
  metrics.Add(0.0, 1.0);
  CHECK(std::isnan(metrics.r_squared()));
  CHECK(metrics.mean_squared_error() == 1.0);
}

}  // namespace
TEST_CASE("Merging metrics equals adding every sample to one, removing undoes it", "[metrics]") {
  RegressionMetrics all, first, second;
  for (int t = 0; t < 300; ++t) {
    const double target = std::sin(0.3 * t) * 10 + t * 0.01, prediction = target + std::cos(t);
    all.Add(prediction, target);
    (t < 120 ? first : second).Add(prediction, target);
  }
  RegressionMetrics merged = first;
  merged.Merge(second);
  CHECK(merged.count() == all.count());
  CHECK(merged.sum_squared_error() == Approx(all.sum_squared_error()).epsilon(1e-12));
  CHECK(merged.mean_absolute_error() == Approx(all.mean_absolute_error()).epsilon(1e-12));
  CHECK(merged.state().target_mean == Approx(all.state().target_mean).epsilon(1e-12));
  CHECK(merged.r_squared() == Approx(all.r_squared()).epsilon(1e-12));
  merged.Remove(first);
  CHECK(merged.count() == second.count());
  CHECK(merged.state().target_mean == Approx(second.state().target_mean).epsilon(1e-12));
  CHECK(merged.state().target_squared_deviations ==
        Approx(second.state().target_squared_deviations).epsilon(1e-10));
  CHECK(merged.sum_squared_error() == Approx(second.sum_squared_error()).epsilon(1e-10));
  RegressionMetrics empty;
  empty.Merge(second);
  CHECK(empty.state().target_squared_deviations == second.state().target_squared_deviations);
  empty.Remove(second);
  CHECK(empty.count() == 0);
}

}  // namespace rffstream
