// StreamPipeline's windows: those that decide how lines are read before
// any line is parsed — libsvm's dimension (the largest index of a window of
// lines) and serve's input shape (the most common field count of the
// warm-up window), the held lines then parsed in their order — and the end
// of the warm-up window: the model built from it learns its lines.
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "rffstream/stream/model_options.h"
#include "rffstream/stream/stream_pipeline.h"
#include "rffstream/stream/task_outputs.h"

namespace rffstream {
namespace {

// Replays the window's lines after they were answered "held" at arrival:
// their answers were given, only lines found bad on replay are passed on.
class AnsweredWindowSink : public OutcomeSink {
 public:
  explicit AnsweredWindowSink(OutcomeSink& sink) : sink_(sink) {}
  bool Take(const LineOutcome& outcome) override {
    if (outcome.kind != LineOutcome::Kind::kBad) return true;
    LineOutcome replayed = outcome;
    replayed.replayed = true;
    return sink_.Take(replayed);
  }

 private:
  OutcomeSink& sink_;
};

}  // namespace

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
    sink_.Note(absl::StrCat("libsvm dimension inferred: ", input_.task().num_inputs(), "\n"));
  }
  // Before the window's lines become dense rows: one stray index (100000:1)
  // makes every row that wide.
  absl::StatusOr<LearnerConfig> config = LearnerConfigFromOptions(
      settings_.model, input_.task().num_inputs(), input_.task().num_outputs());
  if (config.ok()) {
    if (absl::Status fits = CheckModelFitsMemory(*config, settings_.model,
                                                 static_cast<std::int64_t>(held_.size()),
                                                 settings_.block_size);
        !fits.ok()) {
      held_.clear();
      return fits;
    }
  }
  return ParseHeldWindow();
}

template <class Real>
absl::Status StreamPipeline<Real>::HoldForShape(std::int64_t line_number, std::string_view text) {
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
    sink_.Note(absl::StrFormat(
        "rffstream %s: input shape: %d fields a line, as %d of the %d lines of the warm-up "
        "window have (the others are not learned)\n",
        settings_.input_name, shape->first, shape->second, texts.size()));
  }
  return ParseHeldWindow();
}

template <class Real>
absl::Status StreamPipeline<Real>::ParseHeldWindow() {
  // The held lines, in input order, as if they came now (taken before a
  // model that needs no window takes the stream); those answered "held" at
  // arrival (serve) get no second answer, only a bad line's error.
  std::vector<WarmUpLine> lines = std::move(held_);
  held_.clear();
  if (absl::Status ready = TaskDecided(); !ready.ok()) return ready;
  const bool at_arrival = settings_.warm_up_answers == WarmUpAnswers::kAtArrival;
  AnsweredWindowSink answered(sink_);
  OutcomeSink& sink = at_arrival ? static_cast<OutcomeSink&>(answered) : sink_;
  ParsedLine parsed;
  for (const WarmUpLine& line : lines) {
    absl::Status handled;
    if (line.kind != WarmUpLine::Kind::kUnparsed) {
      handled = NoAnswer(line.line_number, line.text, sink_);  // after the pending block
    } else {
      input_.Parse(line.text, parsed);
      parsed.line_number = line.line_number;
      handled = HandleParsed(parsed, input_.inputs(), {}, input_.targets(), sink, at_arrival);
    }
    if (!handled.ok()) return handled;
  }
  return absl::OkStatus();
}

template <class Real>
absl::Status StreamPipeline<Real>::BuildAndLearnWindow() {
  const Task& task = input_.task();
  absl::StatusOr<LearnerConfig> config =
      LearnerConfigFromOptions(settings_.model, task.num_inputs(), task.num_outputs());
  if (config.ok()) {
    if (absl::Status fits = CheckModelFitsMemory(*config, settings_.model,
                                                 static_cast<std::int64_t>(held_.size()),
                                                 settings_.block_size);
        !fits.ok()) {
      config = fits;
    }
  }
  if (config.ok()) {
    WarmUpDecision decision =
        DecideOnWarmUp(settings_.model, *std::move(config), task, held_, window_lines_);
    const std::string report =
        WarmUpReport(decision, task, settings_.quiet, settings_.tune_report);
    if (!report.empty()) sink_.Note(report);
    absl::StatusOr<BasicLearner<Real>> learner =
        BasicLearner<Real>::Create(std::move(decision.config));
    if (learner.ok()) {
      model_.SetTargetOffsets(std::move(decision.target_offsets));
      model_.Start(*std::move(learner));
      LearnWindow();
      return absl::OkStatus();
    }
    config = learner.status();
  }
  build_error_ = absl::InvalidArgumentError(config.status().message());
  if (config.status().code() == absl::StatusCode::kResourceExhausted) build_error_ = config.status();
  held_.clear();
  window_data_lines_ = 0;
  provisional_.reset();
  return build_error_;
}

template <class Real>
void StreamPipeline<Real>::LearnWindow() {
  // Every line was answered when it came; the tuned model learns the
  // labelled ones (not those too large to standardize), as if it had
  // answered them, and takes over. Only data lines are held here: the
  // callers take the others out before a model is built.
  for (const WarmUpLine& line : held_) {
    if (line.kind == WarmUpLine::Kind::kData && line.labelled) {
      model_.LearnWithoutAnswer(line.line_number, line.inputs, line.targets);
    }
  }
  held_.clear();
  provisional_.reset();
  model_.EndWarmUp();
  sink_.WarmUpEnded();
}

template <class Real>
bool StreamPipeline<Real>::TakeNoAnswer(const WarmUpLine& line, OutcomeSink& sink) {
  LineOutcome outcome;
  outcome.kind = line.text.empty() ? LineOutcome::Kind::kBlank : LineOutcome::Kind::kBad;
  outcome.line_number = line.line_number;
  outcome.reason = line.text;
  return sink.Take(outcome);
}

template <class Real>
absl::Status StreamPipeline<Real>::JoinWindow(std::int64_t line, std::span<const double> inputs,
                                              bool labelled, std::span<const double> targets,
                                              OutcomeSink& sink, bool answered) {
  // A line answered "held" already (serve's shape window) gets no answer
  // and no score: nobody received one.
  bool go_on = true;
  if (!answered) {
    const double variance =
        settings_.with_variance ? provisional_->Variance(inputs) : std::nan("");
    go_on = model_.AnswerProvisionally(line, provisional_->Predict(inputs), variance,
                                       labelled, targets, sink);
  }
  const bool learns = labelled && settings_.learns;
  if (learns) provisional_->Learn(inputs, targets);
  WarmUpLine held;
  held.line_number = line;
  held.kind = WarmUpLine::Kind::kData;
  held.labelled = learns;
  held.inputs.assign(inputs.begin(), inputs.end());
  held.targets.assign(targets.begin(), targets.end());
  held_.push_back(std::move(held));
  if (++window_data_lines_ >= window_lines_) {
    if (absl::Status built = BuildAndLearnWindow(); !built.ok()) return built;
  }
  return Verdict(go_on);
}

template int StreamPipeline<float>::UnparsedHeldLines() const;
template absl::Status StreamPipeline<float>::DecideDimension();
template absl::Status StreamPipeline<float>::HoldForShape(std::int64_t, std::string_view);
template absl::Status StreamPipeline<float>::DecideShape();
template absl::Status StreamPipeline<float>::ParseHeldWindow();
template absl::Status StreamPipeline<float>::BuildAndLearnWindow();
template void StreamPipeline<float>::LearnWindow();
template bool StreamPipeline<float>::TakeNoAnswer(const WarmUpLine&, OutcomeSink&);
template absl::Status StreamPipeline<float>::JoinWindow(std::int64_t, std::span<const double>, bool,
                                                    std::span<const double>, OutcomeSink&, bool);
template int StreamPipeline<double>::UnparsedHeldLines() const;
template absl::Status StreamPipeline<double>::DecideDimension();
template absl::Status StreamPipeline<double>::HoldForShape(std::int64_t, std::string_view);
template absl::Status StreamPipeline<double>::DecideShape();
template absl::Status StreamPipeline<double>::ParseHeldWindow();
template absl::Status StreamPipeline<double>::BuildAndLearnWindow();
template void StreamPipeline<double>::LearnWindow();
template bool StreamPipeline<double>::TakeNoAnswer(const WarmUpLine&, OutcomeSink&);
template absl::Status StreamPipeline<double>::JoinWindow(std::int64_t, std::span<const double>, bool,
                                                    std::span<const double>, OutcomeSink&, bool);

}  // namespace rffstream
