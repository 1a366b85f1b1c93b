// StreamPipeline's windows that decide how lines are read before any line
// is parsed: libsvm's dimension (the largest index of a window of lines),
// and serve's input shape (the most common field count of the warm-up
// window), with the held lines then parsed where they are held.
#include <cinttypes>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "model_options.h"
#include "stream_pipeline.h"
#include "task_outputs.h"

namespace rffstream::app {

template <class Real>
int StreamPipeline<Real>::UnparsedHeldLines() const {
  int count = 0;
  for (const WarmUpLine& line : held_) count += line.kind == WarmUpLine::Kind::kUnparsed ? 1 : 0;
  return count;
}

template <class Real>
absl::Status StreamPipeline<Real>::DecideDimension() {
  std::vector<std::string> texts;
  for (const WarmUpLine& line : held_) {
    if (line.kind == WarmUpLine::Kind::kUnparsed) texts.push_back(line.text);
  }
  if (absl::Status decided = input_.DecideFromWindow(texts); !decided.ok()) return decided;
  if (!settings_.quiet) {
    std::fprintf(settings_.log, "libsvm dimension inferred: %d\n", input_.task().num_inputs());
  }
  // Before the window's lines become dense rows: one stray index (100000:1)
  // makes every row that wide.
  absl::StatusOr<LearnerConfig> config = LearnerConfigFromOptions(
      settings_.model, input_.task().num_inputs(), input_.task().num_outputs());
  if (config.ok()) {
    if (absl::Status fits = CheckModelFitsMemory(*config, settings_.model,
                                                 static_cast<std::int64_t>(held_.size()));
        !fits.ok()) {
      held_.clear();
      return fits;
    }
  }
  return ParseHeldWindow();
}

template <class Real>
absl::Status StreamPipeline<Real>::HoldForShape(std::int64_t line_number, std::string_view text) {
  // A line that can never parse is answered now, as it would be once the
  // shape is known.
  if (std::optional<std::string> bad = input_.NonNumericField(text)) {
    return NoAnswer(line_number, *bad);
  }
  WarmUpLine held;
  held.line_number = line_number;
  held.text = std::string(text);
  held_.push_back(std::move(held));
  const int window = WarmUpWindowLines(settings_.model, settings_.input.classes);
  const int held_lines = UnparsedHeldLines();
  if (held_lines >= window) {
    if (absl::Status decided = DecideShape(); !decided.ok()) return decided;
  }
  return AnswerHeld(line_number, held_lines, window);
}

template <class Real>
absl::Status StreamPipeline<Real>::DecideShape() {
  std::vector<std::string> texts;
  for (const WarmUpLine& line : held_) {
    if (line.kind == WarmUpLine::Kind::kUnparsed) texts.push_back(line.text);
  }
  absl::StatusOr<std::pair<int, int>> shape = input_.DecideFromShapeWindow(texts);
  if (!shape.ok()) {
    held_.clear();
    return shape.status();
  }
  if (shape->second < static_cast<int>(texts.size()) || !settings_.quiet) {
    std::fprintf(settings_.log,
                 "rffstream %s: input shape: %d fields a line, as %d of the %zu lines of the "
                 "warm-up window have (the others are not learned)\n",
                 settings_.input_name.c_str(), shape->first, shape->second, texts.size());
  }
  return ParseHeldWindow();
}

template <class Real>
absl::Status StreamPipeline<Real>::ParseHeldWindow() {
  ParsedLine parsed;
  for (WarmUpLine& line : held_) {
    if (line.kind != WarmUpLine::Kind::kUnparsed) continue;
    input_.Parse(line.text, parsed);
    std::optional<std::string> invalid;
    if (parsed.kind == ParsedLine::Kind::kValues && parsed.labelled) {
      invalid = InvalidClassLabel(input_.task(), input_.targets()[0]);
    }
    if (parsed.kind != ParsedLine::Kind::kValues || invalid.has_value()) {
      line.kind = WarmUpLine::Kind::kNoAnswer;
      line.text = invalid.value_or(parsed.error);
      continue;
    }
    line.kind = WarmUpLine::Kind::kData;
    line.labelled = parsed.labelled;
    line.inputs.assign(input_.inputs().begin(), input_.inputs().end());
    line.targets.assign(input_.targets().begin(), input_.targets().end());
    line.text.clear();
    ++window_data_lines_;
  }
  if (absl::Status ready = TaskDecided(); !ready.ok()) return ready;
  if (model_.learner() == nullptr && window_data_lines_ >= window_lines_) return BuildAndReplay();
  return absl::OkStatus();
}

template int StreamPipeline<float>::UnparsedHeldLines() const;
template absl::Status StreamPipeline<float>::DecideDimension();
template absl::Status StreamPipeline<float>::HoldForShape(std::int64_t, std::string_view);
template absl::Status StreamPipeline<float>::DecideShape();
template absl::Status StreamPipeline<float>::ParseHeldWindow();
template int StreamPipeline<double>::UnparsedHeldLines() const;
template absl::Status StreamPipeline<double>::DecideDimension();
template absl::Status StreamPipeline<double>::HoldForShape(std::int64_t, std::string_view);
template absl::Status StreamPipeline<double>::DecideShape();
template absl::Status StreamPipeline<double>::ParseHeldWindow();

}  // namespace rffstream::app
