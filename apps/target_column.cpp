#include "target_column.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace rffstream::app {

absl::StatusOr<int> ResolveTargetColumn(std::string_view spec_view, int num_fields,
                                        const std::vector<std::string>& header) {
  const std::string spec(spec_view);
  if (spec == "last") return num_fields - 1;
  if (spec == "first") return 0;
  if (!spec.empty() && std::all_of(spec.begin(), spec.end(), absl::ascii_isdigit)) {
    int index = 0;
    if (!absl::SimpleAtoi(spec, &index) || index >= num_fields) {
      return absl::InvalidArgumentError(absl::StrCat("--target=", spec, ": column index out of range (the input has ",
                                                     num_fields, " columns, counted from 0)"));
    }
    return index;
  }
  if (header.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--target=", spec, ": a column name needs a header row (--header)"));
  }
  const auto found = std::find(header.begin(), header.end(), spec);
  if (found == header.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--target=", spec, ": no such column in the header"));
  }
  return static_cast<int>(found - header.begin());
}

}  // namespace rffstream::app
