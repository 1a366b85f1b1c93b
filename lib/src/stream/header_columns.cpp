#include "rffstream/stream/header_columns.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace rffstream {

absl::StatusOr<LineColumns> HeaderColumns(const std::vector<std::string>& header,
                                          const Task& task, std::string_view model_source) {
  if (task.column_names.empty()) {
    // A model learned without a header matches columns by position; a
    // "header" of numbers is a data line that --header would drop unseen.
    const bool all_numbers = std::all_of(header.begin(), header.end(), [](const std::string& field) {
      double value = 0.0;
      return absl::SimpleAtod(field, &value);
    });
    if (all_numbers) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--header makes the first line (", absl::StrJoin(header, ", "),
          ") a header, but it holds only numbers, and the model from ", std::string(model_source),
          " was learned without a header: "
          "it is a data line, which would be dropped; leave out --header"));
    }
    return LineColumns::kAll;
  }
  for (const LineColumns columns :
       {LineColumns::kAll, LineColumns::kWithoutTargets, LineColumns::kInputsOnly}) {
    if (header == ColumnNames(task, columns)) return columns;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "the header (", absl::StrJoin(header, ", "), ") is not the one the model from ",
      std::string(model_source), " learned with (",
      absl::StrJoin(task.column_names, ", "), "), nor those names without the target columns "
      "(a file without a header: --noheader)"));
}

std::vector<std::string> ColumnNames(const Task& task, LineColumns columns) {
  std::vector<std::string> names;
  const auto listed = [](const std::vector<int>& list, int column) {
    return std::find(list.begin(), list.end(), column) != list.end();
  };
  for (int column = 0; column < static_cast<int>(task.column_names.size()); ++column) {
    if (columns != LineColumns::kAll && listed(task.target_columns, column)) continue;
    if (columns == LineColumns::kInputsOnly && listed(task.ignored_columns, column)) continue;
    names.push_back(task.column_names[column]);
  }
  return names;
}

}  // namespace rffstream
