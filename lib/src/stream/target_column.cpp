#include "rffstream/stream/target_column.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace rffstream {

absl::StatusOr<int> ResolveTargetColumn(std::string_view flag_view, std::string_view spec_view,
                                        int num_fields, const std::vector<std::string>& header) {
  const std::string flag(flag_view);
  const std::string spec(spec_view);
  if (spec == "last") return num_fields - 1;
  if (spec == "first") return 0;
  if (!spec.empty() && std::all_of(spec.begin(), spec.end(), absl::ascii_isdigit)) {
    int index = 0;
    if (!absl::SimpleAtoi(spec, &index) || index >= num_fields) {
      return absl::InvalidArgumentError(
          absl::StrCat(flag, "=", spec, ": column index out of range (the input has ", num_fields,
                       " columns, counted from 0)"));
    }
    return index;
  }
  if (header.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag, "=", spec, ": a column name needs a header row (--header)"));
  }
  const auto found = std::find(header.begin(), header.end(), spec);
  if (found == header.end()) {
    return absl::InvalidArgumentError(absl::StrCat(flag, "=", spec,
                                                   ": no such column; the header has ",
                                                   absl::StrJoin(header, ", ")));
  }
  if (std::find(found + 1, header.end(), spec) != header.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        flag, "=", spec, ": the header names more than one column '", spec,
        "'; give the column's 0-based index instead"));
  }
  return static_cast<int>(found - header.begin());
}

}  // namespace rffstream
