#include "rffstream/stream/input_format.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "rffstream/stream/text_columns_ahead.h"
#include "rffstream/stream/input_columns.h"
#include "rffstream/stream/model_options.h"
#include "rffstream/csv_line_parser.h"
#include "rffstream/libsvm_line_parser.h"
#include "rffstream/stream/target_column.h"

namespace rffstream {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

std::string DelimiterName(char delimiter) {
  return delimiter == '\t' ? "tab" : std::string(1, delimiter);
}

// Why a line split into too few fields, with the flag that would split it.
std::string DelimiterHint(std::string_view line, char delimiter) {
  // "1 3:0.5 7:1.25": a label, then index:value pairs.
  if (line.find(' ') != std::string_view::npos && line.find(':') != std::string_view::npos &&
      line.find(delimiter) == std::string_view::npos) {
    return "; the line looks like libsvm's (label index:value ...): try --format=libsvm";
  }
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

bool InfersLibsvmDimension(const InputOptions& options) {
  return options.format == InputFormat::kLibsvm && options.dim == 0;
}

absl::StatusOr<int> InferredLibsvmDimension(const InputOptions& options,
                                            const std::vector<std::string>& warm_up) {
  int dimension = 0;
  for (const std::string& line : warm_up) dimension = std::max(dimension, MaxLibsvmIndex(line));
  if (dimension == 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "no feature index in the first ", warm_up.size(), " lines to infer --dim from"));
  }
  if (dimension > options.max_inputs) {
    return absl::FailedPreconditionError(
        absl::StrCat("the largest feature index in the first ", warm_up.size(), " lines is ",
                     dimension, ", more inputs than --max_inputs=", options.max_inputs,
                     " (give --dim, or raise --max_inputs)"));
  }
  return dimension;
}

absl::Status ValidateInputOptions(const InputOptions& options, bool can_infer_dimension) {
  const bool libsvm = options.format == InputFormat::kLibsvm;
  const std::string& delimiter = options.delimiter;
  if (delimiter != "tab" && (delimiter.size() != 1 || delimiter == " " || delimiter == "\"" ||
                             delimiter == "\n" || delimiter == "\r")) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--delimiter=", delimiter, ": expected one character other than space and quote, or tab "
        "(use --format=dense for space-separated numbers)"));
  }
  const int max_inputs = options.max_inputs;
  if (max_inputs < 1) {
    return absl::InvalidArgumentError(absl::StrCat("--max_inputs must be positive, got ", max_inputs));
  }
  const int dim = options.dim;
  if (dim < 0 || (libsvm && dim == 0 && !can_infer_dimension)) {
    return absl::InvalidArgumentError("--format=libsvm needs --dim=N (the number of inputs)");
  }
  if (dim > max_inputs) {
    return absl::InvalidArgumentError(absl::StrCat("--dim=", dim, " is more inputs than --max_inputs=",
                                                   max_inputs, " (raise --max_inputs to allow it)"));
  }
  if (options.category_buckets < 2 || options.category_buckets > Task::kMaxCategoryBuckets) {
    return absl::InvalidArgumentError(absl::StrCat("--category_buckets must be 2 to ",
                                                   Task::kMaxCategoryBuckets, ", got ",
                                                   options.category_buckets));
  }
  if (libsvm && (!options.targets.empty() || !options.ignore.empty())) {
    return absl::InvalidArgumentError("--format=libsvm has one label: --targets and --ignore do not apply");
  }
  return absl::OkStatus();
}

char InputDelimiter(const InputOptions& options) {
  if (options.format == InputFormat::kDense) return CsvLineParser::kWhitespace;
  const std::string& delimiter = options.delimiter;
  return delimiter == "tab" ? '\t' : delimiter[0];
}

bool InputHasHeader(const InputOptions& options, const Task* model_task) {
  if (options.given.Has("header") || model_task == nullptr) return options.header;
  return model_task->header;
}

std::string_view WithoutByteOrderMark(std::string_view first_line) {
  if (first_line.substr(0, kByteOrderMark.size()) == kByteOrderMark) first_line.remove_prefix(kByteOrderMark.size());
  return first_line;
}

namespace {

// Which columns are targets, ignored and categorical; errors name a column
// given two roles, or no column left for the inputs.
absl::Status AssignColumnRoles(const InputOptions& options, const std::vector<std::string>& header,
                               std::string_view first_line, std::string_view head, Task& task) {
  absl::StatusOr<std::vector<int>> targets = TargetColumns(options, task.num_fields, header);
  if (!targets.ok()) return targets.status();
  task.target_columns = *std::move(targets);
  absl::StatusOr<std::vector<int>> ignored = IgnoredColumns(options, task.num_fields, header);
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
  absl::StatusOr<std::vector<int>> categorical = CategoricalColumns(options, task, first_line, head);
  if (!categorical.ok()) return categorical.status();
  task.categorical_columns = *std::move(categorical);
  task.category_buckets = options.category_buckets;
  for (int column : task.categorical_columns) {
    for (const std::vector<int>* other : {&task.target_columns, &task.ignored_columns}) {
      if (std::find(other->begin(), other->end(), column) != other->end()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "--categorical: ", task.ColumnName(column), " is also a target or ignored"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Task> TaskFromOptions(const InputOptions& options, const ModelOptions& model,
                                     std::string_view first_line,
                                     const std::vector<std::string>& header, int libsvm_dimension,
                                     int num_fields, std::string_view head) {
  Task task;
  task.format = options.format;
  task.header = !header.empty();
  task.num_classes = options.classes;
  task.standardize_lines = model.standardize;
  task.gamma_from_warm_up = GammaFromWarmUp(model);
  task.drift_from_stream = TracksDrift(model);
  task.ridge_from_warm_up = RidgeFromWarmUp(model);
  task.kernel_from_warm_up = KernelFromWarmUp(model);
  const int max_inputs = options.max_inputs;
  if (task.format == InputFormat::kLibsvm) {
    task.libsvm_dimension = libsvm_dimension > 0 ? libsvm_dimension : options.dim;
    return task;
  }
  const char delimiter = InputDelimiter(options);
  if (task.format == InputFormat::kCsv) task.delimiter = delimiter;
  task.column_names = header;
  task.num_fields = num_fields > 0     ? num_fields
                    : header.empty() ? CountCsvFields(first_line, delimiter)
                                     : static_cast<int>(header.size());
  if (task.num_fields < 2) {
    return absl::FailedPreconditionError(
        absl::StrCat("need at least 2 columns (inputs and a target), got ", task.num_fields,
                     " with delimiter '", DelimiterName(delimiter), "'",
                     // With a header, its one field is the whole header line.
                     DelimiterHint(header.empty() ? first_line : std::string_view(header[0]),
                                   delimiter)));
  }
  // A header or a --fields this wide is the user's choice, not a bad line.
  const auto too_wide = header.empty() && num_fields == 0 ? absl::OutOfRangeError
                                                          : absl::InvalidArgumentError;
  if (task.num_fields - 1 > max_inputs) {
    return too_wide(absl::StrCat(task.num_fields, " columns: more inputs than --max_inputs=",
                                 max_inputs, " (raise --max_inputs to allow it)"));
  }
  if (absl::Status roles = AssignColumnRoles(options, header, first_line, head, task);
      !roles.ok()) {
    return roles;
  }
  if (task.num_inputs() > max_inputs) {
    return absl::InvalidArgumentError(absl::StrCat(
        task.num_inputs(), " inputs (", task.categorical_columns.size(),
        " text columns of --category_buckets=", task.category_buckets,
        "): more than --max_inputs=", max_inputs));
  }
  if (absl::Status valid = task.Validate(); !valid.ok()) {
    return absl::InvalidArgumentError(valid.message());
  }
  return task;
}

std::vector<std::string> InputOptionConflicts(const InputOptions& options, const Task& task) {
  const GivenOptions& given = options.given;
  std::vector<std::string> conflicts;
  const auto conflict = [&](std::string flag_and_value, std::string model_value) {
    conflicts.push_back(absl::StrCat(flag_and_value, " (the model has ", model_value, ")"));
  };
  if (given.Has("format") && options.format != task.format) {
    conflict(absl::StrCat("--format=", std::string(InputFormatName(options.format))),
             std::string(InputFormatName(task.format)));
  }
  if (task.format == InputFormat::kLibsvm) {
    if (given.Has("dim") && options.dim != task.libsvm_dimension) {
      conflict(absl::StrCat("--dim=", options.dim), absl::StrCat(task.libsvm_dimension));
    }
  } else {
    if (task.format == InputFormat::kCsv && given.Has("delimiter") &&
        InputDelimiter(options) != task.delimiter) {
      conflict(absl::StrCat("--delimiter=", options.delimiter),
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
    if (given.Has("target") || given.Has("targets")) {
      const bool several = given.Has("targets");
      check_columns(several ? "--targets" : "--target", several ? options.targets : options.target,
                    TargetColumns(options, task.num_fields, task.column_names),
                    task.target_columns);
    }
    if (given.Has("ignore")) {
      check_columns("--ignore", options.ignore,
                    IgnoredColumns(options, task.num_fields, task.column_names),
                    task.ignored_columns);
    }
    if (given.Has("categorical") && options.categorical != "auto") {
      check_columns("--categorical", options.categorical,
                    CategoricalColumns(options, task, "", ""), task.categorical_columns);
    }
    if (given.Has("category_buckets") && !task.categorical_columns.empty() &&
        options.category_buckets != task.category_buckets) {
      conflict(absl::StrCat("--category_buckets=", options.category_buckets),
               absl::StrCat(task.category_buckets));
    }
  }
  if (given.Has("classes") && options.classes != task.num_classes) {
    conflict(absl::StrCat("--classes=", options.classes),
             task.is_classifier() ? absl::StrCat(task.num_classes, " classes")
                                  : std::string("regression targets"));
  }
  return conflicts;
}

}  // namespace rffstream
