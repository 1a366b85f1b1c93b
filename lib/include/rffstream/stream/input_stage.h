// File: rffstream/stream/input_stage.h
//
// The input stage of the stream pipeline: decides how lines are read — the
// header row, the task (columns, targets, classes) from the options and the
// first data line, or libsvm's dimension from a window of lines — and then
// parses each line into numbers. A loaded model brings its task; the input
// must then fit it.
#ifndef RFFSTREAM_STREAM_INPUT_STAGE_H_
#define RFFSTREAM_STREAM_INPUT_STAGE_H_

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "rffstream/stream/options.h"
#include "rffstream/stream/parsed_line.h"
#include "rffstream/line_parser.h"
#include "rffstream/task.h"

namespace rffstream {

class InputStage {
 public:
  struct Settings {
    InputOptions input;
    ModelOptions model;
    bool reads_header = true;  // the stream may start with a header row
    // Without a header, a loaded model's lines may leave out the targets
    // (PipelineSettings::lines_without_targets).
    bool lines_without_targets = false;
    int fields = 0;            // > 0: the field count, not taken from the first line
    // With no --fields and no model, the field count is the most common one
    // of the warm-up window's lines, not the first line's (serve: many
    // clients, none of whom may decide the shape for the others).
    bool shape_from_window = false;
    // The input's first bytes when it is a regular file (text_columns_ahead.h).
    std::string head;
  };

  explicit InputStage(Settings settings) : settings_(std::move(settings)) {}

  // The task of a loaded model (`source` names it in messages).
  void Resume(const Task& task, std::string source);

  // Whether the stream's first line is a header row.
  bool ExpectsHeader() const;
  // The header row; a warning (a name used twice) when there is one. An
  // error (FailedPrecondition) when it does not match the loaded model's.
  [[nodiscard]] absl::StatusOr<std::optional<std::string>> ReadHeader(std::string_view line);

  // libsvm without --dim for a new model: the dimension comes from a window
  // of kDimensionWindowLines lines (DecideFromWindow).
  bool NeedsDimensionWindow() const;
  static constexpr int kDimensionWindowLines = 1000;
  // CSV and dense lines under shape_from_window: the field count comes from
  // the window's lines (DecideFromShapeWindow).
  bool NeedsShapeWindow() const;

  // Decides the task from the first data line. OutOfRange: this line is a
  // bad line and the next may decide instead; InvalidArgument: the options
  // cannot describe this input; FailedPrecondition: the input does not fit.
  // `head`: the lines that follow it, when known (else the settings').
  [[nodiscard]] absl::Status DecideFrom(std::string_view first_data_line,
                                        std::string_view head = {});
  // Decides libsvm's dimension from the window's lines.
  [[nodiscard]] absl::Status DecideFromWindow(const std::vector<std::string>& lines);
  // Decides the task from the most common field count of `lines` (ties:
  // the count met first), and its text columns by the same vote: the line
  // that decides is the first of that count whose numbers and texts are
  // the majority's in every column (its empty columns are decided by the
  // lines after it). Returns that count and how many lines have it.
  [[nodiscard]] absl::StatusOr<std::pair<int, int>> DecideFromShapeWindow(
      const std::vector<std::string>& lines);
  // The task of a new model given whole, by a caller that pushes numbers
  // rather than lines (the Python module).
  void DecideTask(const Task& task) { UseTask(task, LineColumns::kAll); }

  bool decided() const { return parser_ != nullptr; }
  const Task& task() const { return task_; }
  // Set once decided.
  const LineParser* parser() const { return parser_.get(); }

  // Parses a line once decided; `inputs` and `targets` are sized for it.
  void Parse(std::string_view text, ParsedLine& parsed);
  std::span<const double> inputs() const { return inputs_; }
  std::span<const double> targets() const { return targets_; }

 private:
  void UseTask(const Task& task, LineColumns columns);
  char FieldDelimiter() const;

  const Settings settings_;
  Task task_;
  bool resumed_ = false;
  std::string model_source_;
  std::vector<std::string> header_;
  // A loaded model's columns that the header row names, if there was one.
  std::optional<LineColumns> header_columns_;
  std::unique_ptr<LineParser> parser_;
  std::vector<double> inputs_;
  std::vector<double> targets_;
};

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_INPUT_STAGE_H_
