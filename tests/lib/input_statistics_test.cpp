#include "rffstream/input_statistics.h"

#include <catch2/catch.hpp>
#include <vector>

namespace rffstream {
namespace {

TEST_CASE("Means and population standard deviations per coordinate", "[input_statistics]") {
  InputStatistics statistics(2);
  for (double value : {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}) {
    const double x[2] = {value, 1e9 + value};  // large offset: Welford stays exact enough
    statistics.Add(x);
  }
  CHECK(statistics.count() == 8);
  CHECK(statistics.Means()[0] == Approx(5.0));
  CHECK(statistics.Means()[1] == Approx(1e9 + 5.0));
  CHECK(statistics.StandardDeviations()[0] == Approx(2.0));
  CHECK(statistics.StandardDeviations()[1] == Approx(2.0).epsilon(1e-6));
}

TEST_CASE("A constant coordinate gets scale 1", "[input_statistics]") {
  InputStatistics statistics(1);
  const double x[1] = {3.0};
  statistics.Add(x);
  CHECK(statistics.StandardDeviations() == std::vector<double>{1.0});
  statistics.Add(x);
  CHECK(statistics.StandardDeviations() == std::vector<double>{1.0});
}

}  // namespace
}  // namespace rffstream
