#include "input_format.h"

#include <algorithm>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "rffstream/csv_line_parser.h"
#include "rffstream/libsvm_line_parser.h"
#include "target_column.h"

ABSL_DECLARE_FLAG(std::string, target);
ABSL_DECLARE_FLAG(std::string, targets);

ABSL_FLAG(std::string, format, "",
          "learn, predict, serve: the input format, csv (the default: delimited numbers), dense "
          "(numbers separated by spaces or tabs) or libsvm (\"label idx:val ...\", 1-based "
          "indices; needs --dim). export: json (the default)");
ABSL_FLAG(std::string, delimiter, ",", "csv field delimiter: one character, or tab");
ABSL_FLAG(int, dim, 0, "libsvm: the number of inputs (indices 1..dim)");
ABSL_FLAG(std::string, ignore, "",
          "csv/dense: columns to skip, comma-separated names (from the header) or 0-based indices");

namespace rffstream::app {
namespace {

// Resolves a comma-separated list of column names or indices.
absl::StatusOr<std::vector<int>> Columns(const std::string& flag, const std::string& list,
                                         int num_fields, const std::vector<std::string>& header) {
  std::vector<int> columns;
  for (absl::string_view name : absl::StrSplit(list, ',')) {
    absl::StatusOr<int> column = ResolveTargetColumn(std::string(name), num_fields, header);
    if (!column.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(flag, ": ", std::string(column.status().message())));
    }
    if (std::find(columns.begin(), columns.end(), *column) != columns.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat(flag, "=", list, ": column ", *column, " is named twice"));
    }
    columns.push_back(*column);
  }
  return columns;
}

}  // namespace

bool InferLibsvmDimension() {
  return absl::GetFlag(FLAGS_format) == "libsvm" && absl::GetFlag(FLAGS_dim) == 0;
}

absl::StatusOr<std::unique_ptr<LineParser>> MakeInferredLibsvmParser(
    const std::vector<std::string>& warm_up) {
  int dimension = 0;
  for (const std::string& line : warm_up) dimension = std::max(dimension, MaxLibsvmIndex(line));
  if (dimension == 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "no feature index in the first ", warm_up.size(), " lines to infer --dim from"));
  }
  return std::make_unique<LibsvmLineParser>(dimension);
}

absl::Status ValidateInputFormatFlags(bool can_infer_dimension) {
  const std::string format = absl::GetFlag(FLAGS_format);
  if (!format.empty() && format != "csv" && format != "dense" && format != "libsvm") {
    return absl::InvalidArgumentError(
        absl::StrCat("--format=", format, ": expected csv, dense or libsvm"));
  }
  const std::string delimiter = absl::GetFlag(FLAGS_delimiter);
  if (delimiter != "tab" && (delimiter.size() != 1 || delimiter == " " || delimiter == "\"")) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--delimiter=", delimiter, ": expected one character other than space and quote, or tab "
        "(use --format=dense for space-separated numbers)"));
  }
  if (absl::GetFlag(FLAGS_dim) < 0 ||
      (format == "libsvm" && absl::GetFlag(FLAGS_dim) == 0 && !can_infer_dimension)) {
    return absl::InvalidArgumentError("--format=libsvm needs --dim=N (the number of inputs)");
  }
  if (format == "libsvm" && (!absl::GetFlag(FLAGS_targets).empty() || !absl::GetFlag(FLAGS_ignore).empty())) {
    return absl::InvalidArgumentError("--format=libsvm has one label: --targets and --ignore do not apply");
  }
  return absl::OkStatus();
}

char InputDelimiter() {
  if (absl::GetFlag(FLAGS_format) == "dense") return CsvLineParser::kWhitespace;
  const std::string delimiter = absl::GetFlag(FLAGS_delimiter);
  return delimiter == "tab" ? '\t' : delimiter[0];
}

absl::StatusOr<std::unique_ptr<LineParser>> MakeLineParser(std::string_view first_line,
                                                           const std::vector<std::string>& header,
                                                           int inputs_only_dimension) {
  if (absl::GetFlag(FLAGS_format) == "libsvm") {
    return std::make_unique<LibsvmLineParser>(absl::GetFlag(FLAGS_dim));
  }
  const char delimiter = InputDelimiter();
  const int num_fields =
      header.empty() ? CountCsvFields(first_line, delimiter) : static_cast<int>(header.size());
  if (num_fields == inputs_only_dimension) {
    return std::make_unique<CsvLineParser>(num_fields, std::vector<int>{}, delimiter);
  }
  if (num_fields < 2) {
    return absl::FailedPreconditionError(
        absl::StrCat("need at least 2 columns (inputs and a target), got ", num_fields));
  }
  const std::string targets = absl::GetFlag(FLAGS_targets);
  absl::StatusOr<std::vector<int>> target_columns =
      targets.empty() ? Columns("--target", absl::GetFlag(FLAGS_target), num_fields, header)
                      : Columns("--targets", targets, num_fields, header);
  if (!target_columns.ok()) return target_columns.status();
  std::vector<int> ignored;
  if (const std::string ignore = absl::GetFlag(FLAGS_ignore); !ignore.empty()) {
    absl::StatusOr<std::vector<int>> columns = Columns("--ignore", ignore, num_fields, header);
    if (!columns.ok()) return columns.status();
    ignored = *std::move(columns);
  }
  for (int column : ignored) {
    if (std::find(target_columns->begin(), target_columns->end(), column) != target_columns->end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--ignore: column ", column, " is also a target"));
    }
  }
  if (static_cast<int>(target_columns->size() + ignored.size()) >= num_fields) {
    return absl::InvalidArgumentError("no column is left for the inputs (--target/--targets/--ignore)");
  }
  return std::make_unique<CsvLineParser>(num_fields, *target_columns, delimiter, ignored);
}

}  // namespace rffstream::app
