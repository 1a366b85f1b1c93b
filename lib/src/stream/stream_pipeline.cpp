#include "rffstream/stream/stream_pipeline.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "internal/largest_number.h"
#include "rffstream/stream/input_format.h"
#include "rffstream/stream/model_options.h"
#include "rffstream/stream/task_outputs.h"

namespace rffstream {

template <class Real>
StreamPipeline<Real>::StreamPipeline(PipelineSettings settings, OutcomeSink& sink)
    : settings_(std::move(settings)),
      sink_(sink),
      input_({settings_.input, settings_.model, settings_.reads_header,
              settings_.lines_without_targets, settings_.fields, settings_.shape_from_window,
              settings_.input_head}),
      model_({settings_.learns, settings_.with_variance, settings_.block_size, settings_.threads,
              /*ridge_follows=*/!settings_.model.given.Has("ridge") || !settings_.model.ridge,
              /*bandwidth_follows=*/!settings_.model.given.Has("gamma") || !settings_.model.gamma,
              settings_.clip_predictions}) {}

template <class Real>
absl::Status StreamPipeline<Real>::Resume(BasicCheckpoint<Real> checkpoint, std::string source) {
  input_.Resume(checkpoint.record.task, std::move(source));
  return model_.Resume(std::move(checkpoint));
}

template <class Real>
absl::Status StreamPipeline<Real>::Begin(const Task& task) {
  first_line_seen_ = true;
  input_.DecideTask(task);
  return TaskDecided();
}

template <class Real>
absl::Status StreamPipeline<Real>::Push(std::int64_t line_number, std::string_view text,
                                        bool too_long) {
  if (!first_line_seen_) {
    first_line_seen_ = true;
    text = WithoutByteOrderMark(text);
    if (input_.ExpectsHeader()) {
      if (too_long) return absl::OkStatus();
      absl::StatusOr<std::optional<std::string>> warning = input_.ReadHeader(text);
      if (!warning.ok()) {
        return warning.status();
      }
      if (warning->has_value()) {
        sink_.Note(absl::StrCat("rffstream: ", settings_.input_name, ": warning: ", **warning, "\n"));
      }
      return absl::OkStatus();
    }
  }
  ParsedLine parsed;
  parsed.line_number = line_number;
  if (too_long) {
    parsed.kind = ParsedLine::Kind::kTooLong;
    return HandleParsed(parsed, {}, {}, {}, sink_);
  }
  if (IsBlankLine(text)) return NoAnswer(line_number, "");
  if (!input_.decided()) {
    if (input_.NeedsDimensionWindow()) {
      WarmUpLine held;
      held.line_number = line_number;
      held.text = std::string(text);
      held_.push_back(std::move(held));
      if (static_cast<int>(held_.size()) < InputStage::kDimensionWindowLines) {
        return absl::OkStatus();
      }
      return DecideDimension();
    }
    if (input_.NeedsShapeWindow() && WarmUpWindowLines(settings_.model, settings_.input.classes) > 0) {
      return HoldForShape(line_number, text);
    }
    if (absl::Status decided = input_.DecideFrom(text); !decided.ok()) {
      // A first line too wide for --max_inputs is a bad line: the next may
      // start the stream.
      if (decided.code() == absl::StatusCode::kOutOfRange) {
        return NoAnswer(line_number, std::string(decided.message()));
      }
      return decided;
    }
    // Lines before this one that could not decide the task, in their
    // turn, before a model that needs no window takes the stream.
    std::vector<WarmUpLine> earlier = std::move(held_);
    held_.clear();
    for (const WarmUpLine& line : earlier) {
      if (!TakeNoAnswer(line, sink_)) return absl::CancelledError("stopped");
    }
    if (absl::Status ready = TaskDecided(); !ready.ok()) return ready;
  }
  input_.Parse(text, parsed);
  return HandleParsed(parsed, input_.inputs(), {}, input_.targets(), sink_);
}

template <class Real>
absl::Status StreamPipeline<Real>::PushParsed(const ParsedLine& parsed,
                                              std::span<const double> inputs,
                                              std::span<const Real> feature_row,
                                              std::span<const double> targets) {
  return HandleParsed(parsed, inputs, feature_row, targets, sink_);
}

template <class Real>
absl::Status StreamPipeline<Real>::HandleParsed(const ParsedLine& parsed,
                                                std::span<const double> inputs,
                                                std::span<const Real> feature_row,
                                                std::span<const double> targets,
                                                OutcomeSink& sink, bool answered) {
  const std::int64_t line = parsed.line_number;
  switch (parsed.kind) {
    case ParsedLine::Kind::kTooLong:
      return NoAnswer(line,
                      absl::StrCat("line longer than ", settings_.input.max_line_bytes,
                                   " bytes (--max_line_bytes)"),
                      sink);
    case ParsedLine::Kind::kBlank:
      return NoAnswer(line, "", sink);
    case ParsedLine::Kind::kMalformed:
      return NoAnswer(line, parsed.error, sink);
    case ParsedLine::Kind::kValues:
      break;
  }
  if (parsed.labelled) {
    if (std::optional<std::string> invalid = InvalidClassLabel(input_.task(), targets[0])) {
      return NoAnswer(line, *invalid, sink);
    }
  }
  if (model_.learner() != nullptr) {
    // A model that lost its soundness learns and answers nothing more.
    if (absl::Status sound = model_.CheckSound(); !sound.ok()) return sound;
    return Verdict(model_.Process(line, inputs, feature_row, parsed.labelled, targets, sink));
  }
  if (!build_error_.ok()) return build_error_;
  // The warm-up window: answered now by the provisional model, learned by
  // the tuned model once the window has chosen its settings. Numbers that
  // the window could not standardize or tune on are refused now.
  if (!TameNumbers(inputs)) {
    const char* refusal = settings_.model.standardize > 0 ? WarmUpDecision::kRefusal
                                                          : ModelStage<Real>::kTooLarge;
    return NoAnswer(
        line, absl::StrCat(refusal, ": ", internal::LargestNumber(input_.task(), inputs, {})),
        sink);
  }
  if (parsed.labelled && !TameNumbers(targets)) {
    return NoAnswer(line,
                    absl::StrCat(ModelStage<Real>::kTooLarge, ": ",
                                 internal::LargestNumber(input_.task(), {}, targets)),
                    sink);
  }
  return JoinWindow(line, inputs, parsed.labelled, targets, sink, answered);
}

template <class Real>
absl::Status StreamPipeline<Real>::AnswerHeld(std::int64_t line_number, int held, int window) {
  if (settings_.warm_up_answers == WarmUpAnswers::kInTurn) return absl::OkStatus();
  LineOutcome outcome;
  outcome.kind = LineOutcome::Kind::kHeld;
  outcome.line_number = line_number;
  outcome.held = held;
  outcome.window = window;
  return Verdict(sink_.Take(outcome));
}

template <class Real>
absl::Status StreamPipeline<Real>::NoAnswer(std::int64_t line_number, std::string_view reason) {
  return NoAnswer(line_number, reason, sink_);
}

template <class Real>
absl::Status StreamPipeline<Real>::NoAnswer(std::int64_t line_number, std::string_view reason,
                                            OutcomeSink& sink) {
  // While lines wait unparsed for the input's shape, a line answered in
  // turn waits with them.
  if (!input_.decided() && settings_.warm_up_answers == WarmUpAnswers::kInTurn) {
    WarmUpLine held;
    held.line_number = line_number;
    held.kind = WarmUpLine::Kind::kNoAnswer;
    held.text = std::string(reason);
    held_.push_back(std::move(held));
    return absl::OkStatus();
  }
  if (model_.learner() != nullptr && !model_.FlushBlock(sink)) {  // answers stay in order
    return absl::CancelledError("stopped");
  }
  LineOutcome outcome;
  outcome.kind = reason.empty() ? LineOutcome::Kind::kBlank : LineOutcome::Kind::kBad;
  outcome.line_number = line_number;
  outcome.reason = reason;
  return Verdict(sink.Take(outcome));
}

template <class Real>
absl::Status StreamPipeline<Real>::TaskDecided() {
  if (model_.learner() != nullptr) return absl::OkStatus();  // a loaded model's
  if (absl::Status status = model_.SetTask(input_.task()); !status.ok()) return status;
  window_lines_ = WarmUpWindowLines(settings_.model, input_.task().num_classes);
  if (window_lines_ == 0) return BuildAndLearnWindow();
  absl::StatusOr<LearnerConfig> config = LearnerConfigFromOptions(
      settings_.model, input_.task().num_inputs(), input_.task().num_outputs());
  if (!config.ok()) return absl::InvalidArgumentError(config.status().message());
  provisional_.emplace(settings_.model, *std::move(config), input_.task());
  return absl::OkStatus();
}

template <class Real>
absl::Status StreamPipeline<Real>::FlushBlock() {
  if (model_.learner() == nullptr) return absl::OkStatus();
  return Verdict(model_.FlushBlock(sink_));
}

template <class Real>
absl::Status StreamPipeline<Real>::Finish() {
  // A window that the end of the stream cut short decides with what it holds.
  if (!input_.decided() && UnparsedHeldLines() > 0) {
    const absl::Status decided =
        input_.NeedsDimensionWindow() ? DecideDimension() : DecideShape();
    if (!decided.ok()) return decided;
  }
  if (model_.learner() == nullptr && window_data_lines_ > 0 && build_error_.ok()) {
    return BuildAndLearnWindow();
  }
  if (model_.learner() == nullptr) {
    // No data line came: the held lines (blank or bad) get their outcomes.
    std::vector<WarmUpLine> lines = std::move(held_);
    held_.clear();
    for (const WarmUpLine& line : lines) {
      if (!TakeNoAnswer(line, sink_)) return absl::CancelledError("stopped");
    }
    return absl::OkStatus();
  }
  return FlushBlock();
}

template <class Real>
absl::Status StreamPipeline<Real>::Save(const std::string& path) const {
  if (model_.learner() == nullptr) {
    // Lines held for the input's shape (serve) are not yet counted as data.
    const int window = input_.decided() ? window_lines_
                                        : WarmUpWindowLines(settings_.model, settings_.input.classes);
    return absl::FailedPreconditionError(absl::StrCat("no model yet (the warm-up window holds ",
                                                      window_data_lines_ + UnparsedHeldLines(),
                                                      " of ", window, " lines)"));
  }
  return model_.Save(path);
}

template <class Real>
absl::Status StreamPipeline<Real>::Verdict(bool go_on) const {
  // A sample that revealed the model unsound was refused: the run stops
  // with the reason (and the caller saves nothing over the last good model).
  if (absl::Status sound = model_.CheckSound(); !sound.ok()) return sound;
  return go_on ? absl::OkStatus() : absl::CancelledError("stopped");
}

template class StreamPipeline<float>;
template class StreamPipeline<double>;

}  // namespace rffstream
