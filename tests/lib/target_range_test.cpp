#include "rffstream/target_range.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

namespace rffstream {
namespace {

TEST_CASE("Answers are kept within the learned targets widened by half their width",
          "[target_range]") {
  TargetRange range(2);
  CHECK(range.empty());
  std::vector<double> answers{1e6, -1e6};
  range.Clip(answers);  // nothing learned: as they were
  CHECK(answers == std::vector<double>{1e6, -1e6});
  range.Add(std::vector<double>{10, 3});
  range.Clip(answers);  // one value of each: no width yet
  CHECK(answers == std::vector<double>{1e6, -1e6});
  range.Add(std::vector<double>{14, 3});
  range.Add(std::vector<double>{12, std::nan("")});  // a NaN target is not counted
  CHECK(range.lows() == std::vector<double>{10, 3});
  CHECK(range.highs() == std::vector<double>{14, 3});
  range.Clip(answers);  // [10, 14] widened by 2 each side; the second has no width
  CHECK(answers == std::vector<double>{16, -1e6});
  answers = {-5, 0};
  range.Clip(answers);
  CHECK(answers[0] == 8);
  answers = {15.5, 0};
  range.Clip(answers);
  CHECK(answers[0] == 15.5);  // within the widened range: untouched
}

TEST_CASE("A merge's range is the union of its models' ranges", "[target_range]") {
  TargetRange a(1), b(1), none(1);
  a.Add(std::vector<double>{1});
  a.Add(std::vector<double>{2});
  b.Add(std::vector<double>{5});
  a.Include(b);
  a.Include(none);  // an empty range adds nothing
  CHECK(a.lows() == std::vector<double>{1});
  CHECK(a.highs() == std::vector<double>{5});
  CHECK(none.lows()[0] == std::numeric_limits<double>::infinity());
  CHECK(TargetRange::FromBounds({1}, {5}) == a);
  // A model whose targets are unknown (an older file) makes the merge's so.
  a.Include(TargetRange::Unbounded(1));
  CHECK(a.unbounded());
  std::vector<double> answer{-1e300};
  a.Clip(answer);
  CHECK(answer[0] == -1e300);
}

}  // namespace
}  // namespace rffstream
