#include "rffstream/libsvm_line_parser.h"

#include <catch2/catch.hpp>
#include <vector>

namespace rffstream {
namespace {

TEST_CASE("libsvm lines fill a dense vector", "[libsvm]") {
  LibsvmLineParser parser(5);
  std::vector<double> x(5);
  double label = 0;
  absl::StatusOr<bool> labelled = parser.ParseTargets("-1 2:0.5  5:3e1\r", x, {&label, 1});
  REQUIRE(labelled.ok());
  CHECK(*labelled);
  CHECK(label == -1);
  CHECK(x == std::vector<double>{0, 0.5, 0, 0, 30});
  // Out of order is fine; no label means predict only; stale values are cleared.
  labelled = parser.ParseTargets("4:1 1:2", x, {&label, 1});
  REQUIRE(labelled.ok());
  CHECK_FALSE(*labelled);
  CHECK(x == std::vector<double>{2, 0, 0, 1, 0});
}

TEST_CASE("libsvm errors name the token", "[libsvm][errors]") {
  LibsvmLineParser parser(5);
  std::vector<double> x(5);
  double label = 0;
  const auto message = [&](std::string_view line) {
    return std::string(parser.ParseTargets(line, x, {&label, 1}).status().message());
  };
  CHECK(message("1 6:1") == "token 2: index 6 is outside 1..5 (--dim)");
  CHECK(message("1 0:1") == "token 2: index 0 is outside 1..5 (--dim)");
  CHECK(message("1 3:1 2:4 3:2") == "index 3 is repeated");
  CHECK(message("1 3:x") == "token 2: value in '3:x' is not a finite number");
  CHECK(message("1 3:nan") == "token 2: value in '3:nan' is not a finite number");
  CHECK(message("1 a:1") == "token 2: 'a:1' has no integer index");
  CHECK(message("1 3:1 7") == "token 3: '7' is not idx:val");
  CHECK(message("one 3:1") == "label 'one' is not a finite number");
}

}  // namespace
}  // namespace rffstream
