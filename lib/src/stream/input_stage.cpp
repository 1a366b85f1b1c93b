#include "rffstream/stream/input_stage.h"

#include <algorithm>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "rffstream/stream/header_columns.h"
#include "rffstream/stream/input_format.h"
#include "rffstream/csv_line_parser.h"

namespace rffstream {
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
    absl::StatusOr<LineColumns> columns = HeaderColumns(header_, task_, model_source_);
    if (!columns.ok()) return absl::FailedPreconditionError(columns.status().message());
    header_columns_ = *columns;
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

absl::Status InputStage::DecideFrom(std::string_view first_data_line, std::string_view head) {
  if (resumed_) {
    if (task_.format == InputFormat::kLibsvm) {
      UseTask(task_, LineColumns::kAll);
      return absl::OkStatus();
    }
    // Lines without the target columns (new data) are predicted, not
    // learned: after a header, as it says; else, where welcome, each line
    // as its field count says. A first line that fits no layout stops the
    // stream.
    const LineColumns columns = header_columns_.value_or(
        settings_.lines_without_targets ? LineColumns::kAnyLayout : LineColumns::kAll);
    const int fields = CountCsvFields(first_data_line, FieldDelimiter());
    bool fits = false;
    for (const LineColumns layout :
         {LineColumns::kAll, LineColumns::kWithoutTargets, LineColumns::kInputsOnly}) {
      fits |= fields == task_.NumFields(layout) &&
              (columns == LineColumns::kAnyLayout || layout == columns);
    }
    if (!fits) {
      return absl::FailedPreconditionError(absl::StrCat(
          fields, " fields, but the model from ", model_source_, " reads lines of ",
          task_.num_fields, " (", task_.num_input_columns(), " input columns, ",
          task_.num_targets(), " target columns, ", task_.ignored_columns.size(),
          " ignored), or of ", task_.NumFields(LineColumns::kWithoutTargets),
          " without the targets"));
    }
    UseTask(task_, columns);
    return absl::OkStatus();
  }
  absl::StatusOr<Task> task =
      TaskFromOptions(settings_.input, settings_.model, first_data_line, header_, 0, settings_.fields,
                      head.empty() ? std::string_view(settings_.head) : head);
  if (!task.ok()) return task.status();
  UseTask(*task, LineColumns::kAll);
  return absl::OkStatus();
}

bool InputStage::NeedsShapeWindow() const {
  return !resumed_ && !decided() && settings_.shape_from_window && settings_.fields == 0 &&
         !InfersLibsvmDimension(settings_.input) && settings_.input.format != InputFormat::kLibsvm;
}

absl::StatusOr<std::pair<int, int>> InputStage::DecideFromShapeWindow(
    const std::vector<std::string>& lines) {
  std::vector<int> counts;
  for (const std::string& line : lines) counts.push_back(CountCsvFields(line, FieldDelimiter()));
  int best = 0, best_lines = 0;
  for (const int count : counts) {  // in order: a tie goes to the count met first
    const int lines_with = static_cast<int>(std::count(counts.begin(), counts.end(), count));
    if (lines_with > best_lines) {
      best = count;
      best_lines = lines_with;
    }
  }
  if (best_lines == 0) return absl::FailedPreconditionError("no data line to read");
  // Each column's vote among the lines of that count: text or number (a
  // missing value abstains).
  const char delimiter = FieldDelimiter();
  std::vector<int> text_votes(static_cast<std::size_t>(best), 0);
  std::vector<std::vector<std::string>> fields;
  std::string head;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (counts[i] != best) continue;
    fields.push_back(SplitCsvHeader(lines[i], delimiter));
    absl::StrAppend(&head, lines[i], "\n");
    for (int column = 0; column < best; ++column) {
      const std::string& field = fields.back()[static_cast<std::size_t>(column)];
      double number = 0;
      if (!IsMissingValue(field)) text_votes[column] += absl::SimpleAtod(field, &number) ? -1 : 1;
    }
  }
  const auto agrees = [&](const std::vector<std::string>& line) {
    for (int column = 0; column < best; ++column) {
      const std::string& field = line[static_cast<std::size_t>(column)];
      double number = 0;
      if (IsMissingValue(field)) continue;
      if ((text_votes[column] > 0) != !absl::SimpleAtod(field, &number)) return false;
    }
    return true;
  };
  std::size_t decider = 0;
  while (decider + 1 < fields.size() && !agrees(fields[decider])) ++decider;
  if (!agrees(fields[decider])) decider = 0;
  std::size_t line = 0;
  for (std::size_t seen = 0; line < lines.size(); ++line) {
    if (counts[line] == best && seen++ == decider) break;
  }
  if (absl::Status decided = DecideFrom(lines[line], head); !decided.ok()) return decided;
  return std::make_pair(best, best_lines);
}

absl::Status InputStage::DecideFromWindow(const std::vector<std::string>& lines) {
  absl::StatusOr<int> dimension = InferredLibsvmDimension(settings_.input, lines);
  if (!dimension.ok()) return dimension.status();
  absl::StatusOr<Task> task = TaskFromOptions(settings_.input, settings_.model, "", {}, *dimension);
  if (!task.ok()) return task.status();
  UseTask(*task, LineColumns::kAll);
  return absl::OkStatus();
}

void InputStage::UseTask(const Task& task, LineColumns columns) {
  task_ = task;
  parser_ = task_.MakeLineParser(columns);
  inputs_.assign(static_cast<std::size_t>(parser_->num_inputs()), 0.0);
  targets_.assign(static_cast<std::size_t>(parser_->num_targets()), 0.0);
}

void InputStage::Parse(std::string_view text, ParsedLine& parsed) {
  ParseLine(*parser_, text, /*too_long=*/false, inputs_, targets_, parsed);
}

}  // namespace rffstream
