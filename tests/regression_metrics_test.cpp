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
}  // namespace rffstream
