#include "input_stage.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "input_format.h"
#include "rffstream/csv_line_parser.h"

namespace rffstream::app {
namespace {

std::optional<std::string> RepeatedName(const std::vector<std::string>& names) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (std::find(names.begin() + i + 1, names.end(), names[i]) != names.end()) return names[i];
  }
  return std::nullopt;
}

}  // namespace

void InputStage::Resume(const Task& task, std::string source) {
  task_ = task;
  resumed_ = true;
  model_source_ = std::move(source);
}

bool InputStage::ExpectsHeader() const {
  return settings_.reads_header && InputHasHeader(settings_.input, resumed_ ? &task_ : nullptr);
}

char InputStage::FieldDelimiter() const {
  if (!resumed_) return InputDelimiter(settings_.input);
  return task_.format == InputFormat::kDense ? CsvLineParser::kWhitespace : task_.delimiter;
}

absl::StatusOr<std::optional<std::string>> InputStage::ReadHeader(std::string_view line) {
  header_ = SplitCsvHeader(line, FieldDelimiter());
  if (resumed_) {
    if (absl::Status matches = CheckHeaderMatchesTask(header_, task_); !matches.ok()) {
      return absl::FailedPreconditionError(matches.message());
    }
    return std::optional<std::string>();
  }
  if (std::optional<std::string> repeated = RepeatedName(header_)) {
    return std::optional<std::string>(
        absl::StrCat("the header names more than one column '", *repeated, "'"));
  }
  return std::optional<std::string>();
}

bool InputStage::NeedsDimensionWindow() const {
  return !resumed_ && !decided() && InfersLibsvmDimension(settings_.input);
}

absl::Status InputStage::DecideFrom(std::string_view first_data_line) {
  if (resumed_) {
    const int fields = task_.format == InputFormat::kLibsvm
                           ? task_.num_fields
                           : CountCsvFields(first_data_line, FieldDelimiter());
    // A line of exactly the model's inputs has no target column: predict it.
    const bool inputs_only = settings_.predicts_only && fields != task_.num_fields &&
                             fields == task_.num_inputs();
    if (fields != task_.num_fields && !inputs_only) {
      return absl::FailedPreconditionError(absl::StrCat(
          fields, " fields, but the model from ", model_source_, " reads lines of ",
          task_.num_fields, " (", task_.num_inputs(), " inputs, ", task_.num_targets(),
          " target columns, ", task_.ignored_columns.size(), " ignored)"));
    }
    UseTask(task_, inputs_only);
    return absl::OkStatus();
  }
  absl::StatusOr<Task> task =
      TaskFromOptions(settings_.input, settings_.model, first_data_line, header_, 0, settings_.fields);
  if (!task.ok()) return task.status();
  UseTask(*task, false);
  return absl::OkStatus();
}

absl::Status InputStage::DecideFromWindow(const std::vector<std::string>& lines) {
  absl::StatusOr<int> dimension = InferredLibsvmDimension(settings_.input, lines);
  if (!dimension.ok()) return dimension.status();
  absl::StatusOr<Task> task = TaskFromOptions(settings_.input, settings_.model, "", {}, *dimension);
  if (!task.ok()) return task.status();
  UseTask(*task, false);
  return absl::OkStatus();
}

void InputStage::UseTask(const Task& task, bool inputs_only) {
  task_ = task;
  parser_ = task_.MakeLineParser(inputs_only);
  inputs_.assign(static_cast<std::size_t>(parser_->num_inputs()), 0.0);
  targets_.assign(static_cast<std::size_t>(parser_->num_targets()), 0.0);
}

void InputStage::Parse(std::string_view text, ParsedLine& parsed) {
  ParseLine(*parser_, LineReader::Line{text, false}, inputs_, targets_, parsed);
}

}  // namespace rffstream::app
