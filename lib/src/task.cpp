#include "rffstream/task.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
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

int Task::num_inputs() const {
  if (format == InputFormat::kLibsvm) return libsvm_dimension;
  return num_fields - static_cast<int>(target_columns.size() + ignored_columns.size());
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

absl::Status Task::Validate() const {
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
  std::vector<bool> used(static_cast<std::size_t>(std::max(num_fields, 0)), false);
  for (const std::vector<int>* columns : {&target_columns, &ignored_columns}) {
    for (int column : *columns) {
      if (column < 0 || column >= num_fields) {
        return absl::InvalidArgumentError(absl::StrCat("task: column ", column,
                                                       " is outside the ", num_fields, " fields"));
      }
      if (used[column]) {
        return absl::InvalidArgumentError(
            absl::StrCat("task: ", ColumnName(column), " is named twice"));
      }
      used[column] = true;
    }
  }
  if (target_columns.empty()) return absl::InvalidArgumentError("task: no target column");
  if (is_classifier() && target_columns.size() != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "task: a classifier has one class column, not ", target_columns.size()));
  }
  if (num_inputs() < 1) return absl::InvalidArgumentError("task: no column is left for the inputs");
  return absl::OkStatus();
}

std::unique_ptr<LineParser> Task::MakeLineParser(bool inputs_only) const {
  if (format == InputFormat::kLibsvm) return std::make_unique<LibsvmLineParser>(libsvm_dimension);
  const char field_delimiter = format == InputFormat::kDense ? CsvLineParser::kWhitespace : delimiter;
  if (inputs_only) {
    return std::make_unique<CsvLineParser>(num_inputs(), CsvLineParser::kNoTarget, field_delimiter);
  }
  return std::make_unique<CsvLineParser>(num_fields, target_columns, field_delimiter,
                                         ignored_columns);
}

}  // namespace rffstream
