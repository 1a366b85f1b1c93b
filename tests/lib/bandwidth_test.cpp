#include "rffstream/bandwidth.h"

#include <catch2/catch.hpp>
#include <vector>

namespace rffstream {
namespace {

TEST_CASE("The median heuristic is one over the median squared distance", "[bandwidth]") {
  // Points 0, 1, 3 on a line: squared distances 1, 9, 4 -> median 4.
  const std::vector<double> rows = {0.0, 1.0, 3.0};
  CHECK(*MedianHeuristicGamma(rows, 1) == Approx(0.25));
  // Standardizing by scale 2 divides squared distances by 4.
  const std::vector<double> offset = {10.0}, scale = {2.0};
  CHECK(*MedianHeuristicGamma(rows, 1, offset, scale) == Approx(1.0));
}

TEST_CASE("The median heuristic names what it cannot do", "[bandwidth][errors]") {
  const std::vector<double> one = {1.0, 2.0};
  CHECK(MedianHeuristicGamma(one, 2).status().message() ==
        "median heuristic: needs at least 2 warm-up inputs, got 1");
  const std::vector<double> same = {1.0, 1.0, 1.0};
  CHECK(MedianHeuristicGamma(same, 1).status().message() ==
        "median heuristic: the median squared distance of the warm-up inputs is zero");
}

}  // namespace
}  // namespace rffstream
