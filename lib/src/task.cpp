#include "rffstream/task.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "absl/strings/str_cat.h"
#include "internal/any_layout_parser.h"
#include "rffstream/csv_line_parser.h"
#include "rffstream/libsvm_line_parser.h"

namespace rffstream {

std::string_view InputFormatName(InputFormat format) {
  switch (format) {
    case InputFormat::kCsv:
      return "csv";
    case InputFormat::kDense:
      return "dense";
    case InputFormat::kLibsvm:
      return "libsvm";
  }
  return "unknown";
}

absl::StatusOr<InputFormat> ParseInputFormat(std::string_view name) {
  for (InputFormat format : {InputFormat::kCsv, InputFormat::kDense, InputFormat::kLibsvm}) {
    if (name == InputFormatName(format)) return format;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown input format '", std::string(name), "' (csv, dense or libsvm)"));
}

int Task::num_input_columns() const {
  if (format == InputFormat::kLibsvm) return libsvm_dimension;
  return num_fields - static_cast<int>(target_columns.size() + ignored_columns.size());
}

int Task::num_inputs() const {
  if (format == InputFormat::kLibsvm) return libsvm_dimension;
  // In 64 bits and capped, so that a corrupt task cannot overflow it.
  const std::int64_t inputs =
      num_input_columns() + static_cast<std::int64_t>(categorical_columns.size()) *
                                (static_cast<std::int64_t>(category_buckets) - 1);
  return static_cast<int>(std::min<std::int64_t>(inputs, std::numeric_limits<int>::max()));
}

bool Task::IsCategorical(int column) const {
  return std::find(categorical_columns.begin(), categorical_columns.end(), column) !=
         categorical_columns.end();
}

std::vector<int> Task::InputColumns() const {
  std::vector<int> columns;
  if (format == InputFormat::kLibsvm) return columns;
  for (int column = 0; column < num_fields; ++column) {
    const auto listed = [column](const std::vector<int>& list) {
      return std::find(list.begin(), list.end(), column) != list.end();
    };
    if (!listed(target_columns) && !listed(ignored_columns)) columns.push_back(column);
  }
  return columns;
}

std::vector<int> Task::CategoryInputStarts() const {
  std::vector<int> starts;
  int input = 0;
  for (const int column : InputColumns()) {
    if (IsCategorical(column)) starts.push_back(input);
    input += IsCategorical(column) ? category_buckets : 1;
  }
  return starts;
}

std::string Task::InputName(int input) const {
  if (format == InputFormat::kLibsvm) return absl::StrCat("index ", input + 1);
  int first = 0;
  for (const int column : InputColumns()) {
    first += IsCategorical(column) ? category_buckets : 1;
    if (input < first) return ColumnName(column);
  }
  return absl::StrCat("input ", input);
}

int Task::NumFields(LineColumns columns) const {
  switch (columns) {
    case LineColumns::kAll:
      return num_fields;
    case LineColumns::kWithoutTargets:
      return num_fields - static_cast<int>(target_columns.size());
    case LineColumns::kInputsOnly:
      return num_input_columns();
    case LineColumns::kAnyLayout:
      break;
  }
  return num_fields;
}

int Task::num_targets() const {
  return format == InputFormat::kLibsvm ? 1 : static_cast<int>(target_columns.size());
}

int Task::num_outputs() const { return is_classifier() ? num_classes : num_targets(); }

std::string Task::ColumnName(int column) const {
  if (column >= 0 && column < static_cast<int>(column_names.size())) {
    return absl::StrCat("column ", column, " '", column_names[column], "'");
  }
  return absl::StrCat("column ", column);
}

namespace {

// The classes: their count, and their labels when the task has them.
absl::Status ValidateClasses(int num_classes, const std::vector<std::string>& class_labels) {
  if (num_classes < 0 || num_classes == 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("task: num_classes must be 0 (regression) or at least 2, got ", num_classes));
  }
  if (!class_labels.empty()) {
    if (static_cast<int>(class_labels.size()) != num_classes) {
      return absl::InvalidArgumentError(absl::StrCat(
          "task: ", class_labels.size(), " class labels for ", num_classes, " classes"));
    }
    for (std::size_t i = 0; i < class_labels.size(); ++i) {
      if (std::find(class_labels.begin() + static_cast<std::ptrdiff_t>(i) + 1, class_labels.end(),
                    class_labels[i]) != class_labels.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("task: the class label '", class_labels[i], "' is given twice"));
      }
    }
  }
  return absl::OkStatus();
}

// Each column named as a target, ignored or text is one of the fields, and
// named once; text columns take a valid number of buckets.
absl::Status ValidateColumnRoles(const Task& task) {
  const int num_fields = task.num_fields;
  std::vector<bool> used(static_cast<std::size_t>(std::max(num_fields, 0)), false);
  if (task.category_buckets < 2 || task.category_buckets > Task::kMaxCategoryBuckets) {
    return absl::InvalidArgumentError(absl::StrCat("task: category columns take 2 to ",
                                                   Task::kMaxCategoryBuckets, " buckets, got ",
                                                   task.category_buckets));
  }
  for (const std::vector<int>* columns :
       {&task.target_columns, &task.ignored_columns, &task.categorical_columns}) {
    for (int column : *columns) {
      if (column < 0 || column >= num_fields) {
        return absl::InvalidArgumentError(absl::StrCat("task: column ", column,
                                                       " is outside the ", num_fields, " fields"));
      }
      if (used[column]) {
        return absl::InvalidArgumentError(
            absl::StrCat("task: ", task.ColumnName(column), " is named twice"));
      }
      used[column] = true;
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status Task::Validate() const {
  if (absl::Status classes = ValidateClasses(num_classes, class_labels); !classes.ok()) {
    return classes;
  }
  if (!target_offsets.empty() &&
      (is_classifier() || static_cast<int>(target_offsets.size()) != num_outputs() ||
       !std::all_of(target_offsets.begin(), target_offsets.end(),
                    [](double offset) { return std::isfinite(offset); }))) {
    return absl::InvalidArgumentError(absl::StrCat("task: ", target_offsets.size(),
                                                   " target offsets (finite, one per output of a "
                                                   "regression) for ", num_outputs(), " outputs"));
  }
  if (standardize_lines < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("task: standardize_lines must be >= 0, got ", standardize_lines));
  }
  if (format == InputFormat::kLibsvm) {
    if (libsvm_dimension < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("task: libsvm input needs a dimension >= 1, got ", libsvm_dimension));
    }
    return absl::OkStatus();
  }
  if (format != InputFormat::kCsv && format != InputFormat::kDense) {
    return absl::InvalidArgumentError("task: unknown input format");
  }
  if (format == InputFormat::kCsv &&
      (delimiter == ' ' || delimiter == '"' || delimiter == '\n' || delimiter == '\r')) {
    return absl::InvalidArgumentError("task: the csv delimiter cannot be a space, quote or newline");
  }
  if (!column_names.empty() && static_cast<int>(column_names.size()) != num_fields) {
    return absl::InvalidArgumentError(absl::StrCat("task: ", column_names.size(),
                                                   " column names for ", num_fields, " fields"));
  }
  if (absl::Status columns = ValidateColumnRoles(*this); !columns.ok()) return columns;
  if (target_columns.empty()) return absl::InvalidArgumentError("task: no target column");
  if (is_classifier() && target_columns.size() != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "task: a classifier has one class column, not ", target_columns.size()));
  }
  if (num_inputs() < 1) return absl::InvalidArgumentError("task: no column is left for the inputs");
  return absl::OkStatus();
}

namespace {

// The parser of lines that hold `columns` (not kAnyLayout).
std::unique_ptr<CsvLineParser> CsvParserOf(const Task& task, LineColumns columns, char delimiter) {
  // The columns a line holds, renumbered from 0 as that line has them.
  CsvLineParser::Columns layout;
  layout.category_buckets = task.category_buckets;
  const auto listed = [](const std::vector<int>& list, int column) {
    return std::find(list.begin(), list.end(), column) != list.end();
  };
  for (int column = 0; column < task.num_fields; ++column) {
    const bool target = listed(task.target_columns, column);
    const bool ignored = listed(task.ignored_columns, column);
    if (target && columns != LineColumns::kAll) continue;
    if (ignored && columns == LineColumns::kInputsOnly) continue;
    const int position = layout.num_fields++;
    if (ignored) layout.ignored.push_back(position);
    if (task.IsCategorical(column)) layout.categorical.push_back(position);
    if (!task.column_names.empty()) layout.names.push_back(task.column_names[column]);
  }
  if (columns == LineColumns::kAll) layout.targets = task.target_columns;  // the output order
  return std::make_unique<CsvLineParser>(std::move(layout), delimiter);
}

}  // namespace

std::unique_ptr<LineParser> Task::MakeLineParser(LineColumns columns) const {
  if (format == InputFormat::kLibsvm) return std::make_unique<LibsvmLineParser>(libsvm_dimension);
  const char field_delimiter = format == InputFormat::kDense ? CsvLineParser::kWhitespace : delimiter;
  if (columns != LineColumns::kAnyLayout) return CsvParserOf(*this, columns, field_delimiter);
  std::vector<std::unique_ptr<CsvLineParser>> layouts;
  for (const LineColumns layout :
       {LineColumns::kAll, LineColumns::kWithoutTargets, LineColumns::kInputsOnly}) {
    const int fields = NumFields(layout);
    const bool known = std::any_of(layouts.begin(), layouts.end(), [fields](const auto& other) {
      return other->num_fields() == fields;
    });
    if (!known) layouts.push_back(CsvParserOf(*this, layout, field_delimiter));
  }
  return std::make_unique<internal::AnyLayoutParser>(std::move(layouts), field_delimiter);
}

}  // namespace rffstream
