#include "input_format.h"

#include <algorithm>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "model_flags.h"
#include "rffstream/csv_line_parser.h"
#include "rffstream/libsvm_line_parser.h"
#include "target_column.h"

ABSL_FLAG(std::string, format, "",
          "learn, predict, serve: the input format, csv (the default: delimited numbers), dense "
          "(numbers separated by spaces or tabs) or libsvm (\"label idx:val ...\", 1-based "
          "indices; needs --dim). export: json (the default)");
ABSL_FLAG(std::string, delimiter, ",", "csv field delimiter: one character, or tab");
ABSL_FLAG(int, dim, 0, "libsvm: the number of inputs (indices 1..dim)");
ABSL_FLAG(bool, header, false, "the first line is a header row of column names");
ABSL_FLAG(std::string, target, "last",
          "target column: last, first, a 0-based index, or a name from the header; "
          "the other columns are the inputs. A line with an empty target field is "
          "predicted but not learned from");
ABSL_FLAG(std::string, ignore, "",
          "csv/dense: columns to skip, comma-separated names (from the header) or 0-based indices");
ABSL_FLAG(int, max_inputs, 100000,
          "the most inputs a line may have: a wider first line (or a libsvm dimension beyond "
          "it) is rejected rather than building a model nobody can afford");

namespace rffstream::app {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

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

// The target columns the flags name, in output order.
absl::StatusOr<std::vector<int>> TargetColumnsFromFlags(int num_fields,
                                                        const std::vector<std::string>& header) {
  const std::string targets = absl::GetFlag(FLAGS_targets);
  return targets.empty() ? Columns("--target", absl::GetFlag(FLAGS_target), num_fields, header)
                         : Columns("--targets", targets, num_fields, header);
}

absl::StatusOr<std::vector<int>> IgnoredColumnsFromFlags(int num_fields,
                                                         const std::vector<std::string>& header) {
  const std::string ignore = absl::GetFlag(FLAGS_ignore);
  if (ignore.empty()) return std::vector<int>{};
  return Columns("--ignore", ignore, num_fields, header);
}

InputFormat FormatFromFlags() {
  const std::string format = absl::GetFlag(FLAGS_format);
  return format == "libsvm" ? InputFormat::kLibsvm
         : format == "dense" ? InputFormat::kDense
                             : InputFormat::kCsv;
}

std::string DelimiterName(char delimiter) {
  return delimiter == '\t' ? "tab" : std::string(1, delimiter);
}

// Why a line split into too few fields, with the flag that would split it.
std::string DelimiterHint(std::string_view line, char delimiter) {
  if (delimiter == CsvLineParser::kWhitespace) return "";
  for (const auto& [separator, flag] :
       {std::pair<char, const char*>{'\t', "--delimiter=tab (or --format=dense)"},
        {';', "--delimiter=';'"},
        {',', "--delimiter=,"},
        {'|', "--delimiter='|'"},
        {' ', "--format=dense"}}) {
    if (separator != delimiter && line.find(separator) != std::string_view::npos) {
      return absl::StrCat("; the line has '", DelimiterName(separator), "' characters: try ", flag);
    }
  }
  return "";
}

}  // namespace

bool InferLibsvmDimension() {
  return absl::GetFlag(FLAGS_format) == "libsvm" && absl::GetFlag(FLAGS_dim) == 0;
}

absl::StatusOr<int> InferredLibsvmDimension(const std::vector<std::string>& warm_up) {
  int dimension = 0;
  for (const std::string& line : warm_up) dimension = std::max(dimension, MaxLibsvmIndex(line));
  if (dimension == 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "no feature index in the first ", warm_up.size(), " lines to infer --dim from"));
  }
  if (dimension > absl::GetFlag(FLAGS_max_inputs)) {
    return absl::FailedPreconditionError(
        absl::StrCat("the largest feature index in the first ", warm_up.size(), " lines is ",
                     dimension, ", more inputs than --max_inputs=", absl::GetFlag(FLAGS_max_inputs),
                     " (give --dim, or raise --max_inputs)"));
  }
  return dimension;
}

absl::Status ValidateInputFormatFlags(bool can_infer_dimension) {
  const std::string format = absl::GetFlag(FLAGS_format);
  if (!format.empty() && !ParseInputFormat(format).ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--format=", format, ": expected csv, dense or libsvm"));
  }
  const std::string delimiter = absl::GetFlag(FLAGS_delimiter);
  if (delimiter != "tab" && (delimiter.size() != 1 || delimiter == " " || delimiter == "\"" ||
                             delimiter == "\n" || delimiter == "\r")) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--delimiter=", delimiter, ": expected one character other than space and quote, or tab "
        "(use --format=dense for space-separated numbers)"));
  }
  const int max_inputs = absl::GetFlag(FLAGS_max_inputs);
  if (max_inputs < 1) {
    return absl::InvalidArgumentError(absl::StrCat("--max_inputs must be positive, got ", max_inputs));
  }
  const int dim = absl::GetFlag(FLAGS_dim);
  if (dim < 0 || (format == "libsvm" && dim == 0 && !can_infer_dimension)) {
    return absl::InvalidArgumentError("--format=libsvm needs --dim=N (the number of inputs)");
  }
  if (dim > max_inputs) {
    return absl::InvalidArgumentError(absl::StrCat("--dim=", dim, " is more inputs than --max_inputs=",
                                                   max_inputs, " (raise --max_inputs to allow it)"));
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

bool InputHasHeader(const Task* model_task) {
  if (IsSetByUser(FLAGS_header) || model_task == nullptr) return absl::GetFlag(FLAGS_header);
  return model_task->header;
}

std::string_view WithoutByteOrderMark(std::string_view first_line) {
  if (first_line.substr(0, kByteOrderMark.size()) == kByteOrderMark) first_line.remove_prefix(kByteOrderMark.size());
  return first_line;
}

absl::StatusOr<Task> TaskFromFlags(std::string_view first_line,
                                   const std::vector<std::string>& header, int libsvm_dimension,
                                   int num_fields) {
  Task task;
  task.format = FormatFromFlags();
  task.header = !header.empty();
  task.num_classes = absl::GetFlag(FLAGS_classes);
  task.standardize_lines = absl::GetFlag(FLAGS_standardize);
  task.gamma_from_warm_up = GammaFromWarmUp();
  task.ridge_from_warm_up = RidgeFromWarmUp();
  task.kernel_from_warm_up = KernelFromWarmUp();
  const int max_inputs = absl::GetFlag(FLAGS_max_inputs);
  if (task.format == InputFormat::kLibsvm) {
    task.libsvm_dimension = libsvm_dimension > 0 ? libsvm_dimension : absl::GetFlag(FLAGS_dim);
    return task;
  }
  const char delimiter = InputDelimiter();
  if (task.format == InputFormat::kCsv) task.delimiter = delimiter;
  task.column_names = header;
  task.num_fields = num_fields > 0     ? num_fields
                    : header.empty() ? CountCsvFields(first_line, delimiter)
                                     : static_cast<int>(header.size());
  if (task.num_fields < 2) {
    return absl::FailedPreconditionError(
        absl::StrCat("need at least 2 columns (inputs and a target), got ", task.num_fields,
                     " with delimiter '", DelimiterName(delimiter), "'",
                     DelimiterHint(header.empty() ? first_line : std::string_view(), delimiter)));
  }
  // A header or a --fields this wide is the user's choice, not a bad line.
  const auto too_wide = header.empty() && num_fields == 0 ? absl::OutOfRangeError
                                                          : absl::InvalidArgumentError;
  if (task.num_fields - 1 > max_inputs) {
    return too_wide(absl::StrCat(task.num_fields, " columns: more inputs than --max_inputs=",
                                 max_inputs, " (raise --max_inputs to allow it)"));
  }
  absl::StatusOr<std::vector<int>> targets = TargetColumnsFromFlags(task.num_fields, header);
  if (!targets.ok()) return targets.status();
  task.target_columns = *std::move(targets);
  absl::StatusOr<std::vector<int>> ignored = IgnoredColumnsFromFlags(task.num_fields, header);
  if (!ignored.ok()) return ignored.status();
  task.ignored_columns = *std::move(ignored);
  for (int column : task.ignored_columns) {
    if (std::find(task.target_columns.begin(), task.target_columns.end(), column) !=
        task.target_columns.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--ignore: ", task.ColumnName(column), " is also a target"));
    }
  }
  if (task.num_inputs() < 1) {
    return absl::InvalidArgumentError("no column is left for the inputs (--target/--targets/--ignore)");
  }
  if (absl::Status valid = task.Validate(); !valid.ok()) {
    return absl::InvalidArgumentError(valid.message());
  }
  return task;
}

std::vector<std::string> InputFlagConflicts(const Task& task) {
  std::vector<std::string> conflicts;
  const auto conflict = [&](std::string flag_and_value, std::string model_value) {
    conflicts.push_back(absl::StrCat(flag_and_value, " (the model has ", model_value, ")"));
  };
  if (IsSetByUser(FLAGS_format) && FormatFromFlags() != task.format) {
    conflict(absl::StrCat("--format=", absl::GetFlag(FLAGS_format)),
             std::string(InputFormatName(task.format)));
  }
  if (task.format == InputFormat::kLibsvm) {
    if (IsSetByUser(FLAGS_dim) && absl::GetFlag(FLAGS_dim) != task.libsvm_dimension) {
      conflict(absl::StrCat("--dim=", absl::GetFlag(FLAGS_dim)), absl::StrCat(task.libsvm_dimension));
    }
  } else {
    if (task.format == InputFormat::kCsv && IsSetByUser(FLAGS_delimiter) &&
        InputDelimiter() != task.delimiter) {
      conflict(absl::StrCat("--delimiter=", absl::GetFlag(FLAGS_delimiter)),
               absl::StrCat("'", DelimiterName(task.delimiter), "'"));
    }
    const auto describe = [&](const std::vector<int>& columns) {
      std::vector<std::string> names;
      for (int column : columns) names.push_back(task.ColumnName(column));
      return columns.empty() ? std::string("none") : absl::StrJoin(names, ", ");
    };
    const auto check_columns = [&](const char* flag, const std::string& value,
                                   const absl::StatusOr<std::vector<int>>& resolved,
                                   const std::vector<int>& model_columns) {
      if (!resolved.ok() || *resolved != model_columns) {
        conflict(absl::StrCat(flag, "=", value), describe(model_columns));
      }
    };
    if (IsSetByUser(FLAGS_target) || IsSetByUser(FLAGS_targets)) {
      const bool several = IsSetByUser(FLAGS_targets);
      check_columns(several ? "--targets" : "--target",
                    several ? absl::GetFlag(FLAGS_targets) : absl::GetFlag(FLAGS_target),
                    TargetColumnsFromFlags(task.num_fields, task.column_names), task.target_columns);
    }
    if (IsSetByUser(FLAGS_ignore)) {
      check_columns("--ignore", absl::GetFlag(FLAGS_ignore),
                    IgnoredColumnsFromFlags(task.num_fields, task.column_names),
                    task.ignored_columns);
    }
  }
  if (IsSetByUser(FLAGS_classes) && absl::GetFlag(FLAGS_classes) != task.num_classes) {
    conflict(absl::StrCat("--classes=", absl::GetFlag(FLAGS_classes)),
             task.is_classifier() ? absl::StrCat(task.num_classes, " classes")
                                  : std::string("regression targets"));
  }
  return conflicts;
}

absl::Status CheckHeaderMatchesTask(const std::vector<std::string>& header, const Task& task) {
  if (task.column_names.empty() || header == task.column_names) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "the header (", absl::StrJoin(header, ", "), ") is not the one the model learned with (",
      absl::StrJoin(task.column_names, ", "), ")"));
}

}  // namespace rffstream::app
