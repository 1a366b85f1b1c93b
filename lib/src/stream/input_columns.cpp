#include "rffstream/stream/input_columns.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "rffstream/stream/text_columns_ahead.h"
#include "rffstream/stream/input_format.h"
#include "rffstream/stream/target_column.h"
#include "rffstream/csv_line_parser.h"

namespace rffstream {
namespace {

// Resolves a comma-separated list of column names or indices.
absl::StatusOr<std::vector<int>> Columns(const std::string& flag, const std::string& list,
                                         int num_fields, const std::vector<std::string>& header) {
  std::vector<int> columns;
  for (absl::string_view name : absl::StrSplit(list, ',')) {
    absl::StatusOr<int> column = ResolveTargetColumn(flag, std::string_view(name.data(), name.size()), num_fields, header);
    if (!column.ok()) return column.status();
    if (std::find(columns.begin(), columns.end(), *column) != columns.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat(flag, "=", list, ": column ", *column, " is named twice"));
    }
    columns.push_back(*column);
  }
  return columns;
}

}  // namespace

absl::StatusOr<std::vector<int>> TargetColumns(const InputOptions& options, int num_fields,
                                               const std::vector<std::string>& header) {
  return options.targets.empty() ? Columns("--target", options.target, num_fields, header)
                                 : Columns("--targets", options.targets, num_fields, header);
}

absl::StatusOr<std::vector<int>> IgnoredColumns(const InputOptions& options, int num_fields,
                                                const std::vector<std::string>& header) {
  if (options.ignore.empty()) return std::vector<int>{};
  return Columns("--ignore", options.ignore, num_fields, header);
}

absl::StatusOr<std::vector<int>> CategoricalColumns(const InputOptions& options, const Task& task,
                                                    std::string_view first_line,
                                                    std::string_view head) {
  if (options.categorical == "none") return std::vector<int>{};
  if (options.categorical != "auto") {
    return Columns("--categorical", options.categorical, task.num_fields, task.column_names);
  }
  std::vector<int> columns, undecided;
  if (first_line.empty()) return columns;
  const std::vector<std::string> fields = SplitCsvHeader(first_line, InputDelimiter(options));
  for (int column = 0; column < static_cast<int>(fields.size()) && column < task.num_fields;
       ++column) {
    const auto listed = [column](const std::vector<int>& list) {
      return std::find(list.begin(), list.end(), column) != list.end();
    };
    double value = 0.0;
    const bool text = !IsMissingValue(fields[column]) && !absl::SimpleAtod(fields[column], &value);
    // Text where the target is: no data line decides the text columns (a
    // header read as data would make every column text); the next line may.
    if (text && listed(task.target_columns)) {
      return absl::OutOfRangeError(absl::StrCat(
          task.ColumnName(column), ": '", fields[column], "' is not a number, so this line is no data",
          task.header ? " (a target holds numbers: classes as 0 .. K-1 with --classes=K)"
                      : " (a header row? give --header)"));
    }
    if (listed(task.ignored_columns) || listed(task.target_columns)) continue;
    if (text) columns.push_back(column);
    if (IsMissingValue(fields[column])) undecided.push_back(column);
  }
  for (const int column : TextColumnsAhead(head, first_line, InputDelimiter(options),
                                           task.num_fields, undecided)) {
    columns.push_back(column);
  }
  std::sort(columns.begin(), columns.end());
  return columns;
}

}  // namespace rffstream
