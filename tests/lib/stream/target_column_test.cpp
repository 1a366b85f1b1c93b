// Column names and indices as --target, --targets and --ignore give them.
#include "rffstream/stream/target_column.h"

#include <string>
#include <vector>

#include "catch2/catch.hpp"

namespace rffstream {
namespace {

TEST_CASE("Columns by position, index and header name", "[target_column]") {
  const std::vector<std::string> header = {"x", "y", "price"};
  CHECK(*ResolveTargetColumn("--target", "last", 3, {}) == 2);
  CHECK(*ResolveTargetColumn("--target", "first", 3, {}) == 0);
  CHECK(*ResolveTargetColumn("--target", "1", 3, {}) == 1);
  CHECK(*ResolveTargetColumn("--target", "price", 3, header) == 2);
}

TEST_CASE("A column that is not there names the flag and the reason", "[target_column]") {
  CHECK(ResolveTargetColumn("--target", "3", 3, {}).status().message() ==
        "--target=3: column index out of range (the input has 3 columns, counted from 0)");
  CHECK(ResolveTargetColumn("--ignore", "price", 3, {}).status().message() ==
        "--ignore=price: a column name needs a header row (--header)");
  CHECK(ResolveTargetColumn("--target", "cost", 3, {"x", "y", "price"}).status().message() ==
        "--target=cost: no such column; the header has x, y, price");
  CHECK(ResolveTargetColumn("--targets", "y", 3, {"y", "y", "z"}).status().message() ==
        "--targets=y: the header names more than one column 'y'; give the column's 0-based index "
        "instead");
  CHECK(ResolveTargetColumn("--target", "99999999999999", 3, {}).status().code() ==
        absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace rffstream
