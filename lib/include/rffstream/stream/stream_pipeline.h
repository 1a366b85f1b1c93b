// File: rffstream/stream/stream_pipeline.h
//
// The stream pipeline that `learn`, `predict` and `serve` all drive: lines
// in, outcomes out (line_outcome.h), in input order. Data flows one way
// through four stages:
//
//   1. input     (input_stage.h)  the header, the task, libsvm's dimension;
//                                 each line parsed into numbers
//   2. warm-up   (warm_up.h)      lines held back until the model can be
//                                 built: standardization and the automatic
//                                 kernel, bandwidth and ridge are decided on
//                                 them; every reason to hold a line back
//                                 shares this one queue, replayed once
//   3. model     (model_stage.h)  predict, learn (alone or in exact blocks),
//                                 running metrics, checkpoints
//   4. outcomes  (the transport's OutcomeSink) answer lines, messages
//
// The transports only move bytes: learn reads a file or pipe and writes
// prediction lines, serve reads sockets and answers each line.
#ifndef RFFSTREAM_STREAM_STREAM_PIPELINE_H_
#define RFFSTREAM_STREAM_STREAM_PIPELINE_H_

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "rffstream/stream/input_stage.h"
#include "rffstream/stream/line_outcome.h"
#include "rffstream/stream/model_stage.h"
#include "rffstream/stream/options.h"
#include "rffstream/stream/parsed_line.h"
#include "rffstream/stream/provisional_model.h"
#include "rffstream/checkpoint.h"
#include "rffstream/stream/warm_up.h"

namespace rffstream {

// When the lines of the warm-up window are answered.
enum class WarmUpAnswers {
  kInTurn,     // once the model exists, each in input order (learn's output file)
  kAtArrival,  // at once, as "held k of N" (serve: no client waits for others)
};

struct PipelineSettings {
  InputOptions input;
  ModelOptions model;
  bool learns = true;        // false: predict, scoring labelled lines only
  // A loaded model's lines may come without their target columns (new
  // data), told apart by their field count when no header says which
  // (predict, serve; learn needs the header, where a line that lost a
  // field must stay a bad line).
  bool lines_without_targets = false;
  bool reads_header = true;  // the stream may start with a header row
  int fields = 0;            // > 0: fixes the field count (serve --fields)
  // Without --fields or a model, the warm-up window's most common field
  // count decides the input's shape, not the first line (serve).
  bool shape_from_window = false;
  // The input's first bytes when it is a regular file, read ahead
  // (text_columns_ahead.h): they decide the text columns the first line
  // leaves empty. `learn` reads 1 MiB ahead of a regular file.
  std::string input_head;
  int block_size = 1;        // labelled lines learned together, exactly
  int threads = 1;           // for each sample's work (ModelStage::Settings)
  bool with_variance = false;
  // A regression's answers within its learned targets' widened range
  // (rffstream/target_range.h).
  bool clip_predictions = true;
  WarmUpAnswers warm_up_answers = WarmUpAnswers::kInTurn;
  // The input's name in the notes (OutcomeSink::Note); `quiet` leaves out
  // all but warnings, `tune_report` adds the tuning's tables.
  std::string input_name;
  bool quiet = false;
  bool tune_report = false;
};

// The checks every transport makes on its settings before reading any
// input, so that the same options are refused the same everywhere:
// InvalidArgument naming the option (ResourceExhausted: the model would not
// fit the memory limit). `can_infer_dimension`: a libsvm input may leave its
// dimension to a window of lines (ValidateInputOptions).
[[nodiscard]] absl::Status ValidatePipelineSettings(const PipelineSettings& settings,
                                                    bool loads_model, bool can_infer_dimension);

template <class Real>
class StreamPipeline {
 public:
  StreamPipeline(PipelineSettings settings, OutcomeSink& sink);
  StreamPipeline(const StreamPipeline&) = delete;
  StreamPipeline& operator=(const StreamPipeline&) = delete;

  // Starts from a loaded model (named `source` in messages) and its task.
  [[nodiscard]] absl::Status Resume(BasicCheckpoint<Real> checkpoint, std::string source);

  // Starts a new model's stream from its task, for a caller that pushes
  // numbers (PushParsed) rather than lines: the Python module.
  [[nodiscard]] absl::Status Begin(const Task& task);

  // The errors below stop the stream: Cancelled when the sink asked to stop
  // (it has the message); InvalidArgument or ResourceExhausted when the
  // options cannot work on this input; any other code when the input cannot
  // be read as the options or the model say. A bad line is an outcome, not
  // an error.

  // The next line of the stream (without its newline); `too_long` when the
  // reader cut it off.
  [[nodiscard]] absl::Status Push(std::int64_t line_number, std::string_view text,
                                  bool too_long = false);
  // A line parsed (and, once the model exists, mapped: `feature_row`, else
  // empty) by a reading thread with parser().
  [[nodiscard]] absl::Status PushParsed(const ParsedLine& parsed, std::span<const double> inputs,
                                        std::span<const Real> feature_row,
                                        std::span<const double> targets);
  // Learns the lines waiting for a full block: a transport calls it when it
  // is about to wait for input.
  [[nodiscard]] absl::Status FlushBlock();
  // The end of the stream: a short window decides with what it has.
  [[nodiscard]] absl::Status Finish();

  // FailedPrecondition while there is no model yet.
  [[nodiscard]] absl::Status Save(const std::string& path) const;

  // Set once the input stage has decided how to parse.
  const LineParser* parser() const { return input_.parser(); }
  // Set once the model exists.
  const BasicLearner<Real>* learner() const { return model_.learner(); }
  const ModelStage<Real>& model() const { return model_; }
  ModelStage<Real>& mutable_model() { return model_; }
  const Task& task() const { return model_.task(); }
  int window_lines() const { return window_lines_; }
  // The lines held in the warm-up window while there is no model yet.
  const std::vector<WarmUpLine>& held_lines() const { return held_; }
  // While the window fills: the outputs its lines are answered with (the
  // provisional model's) for `inputs` (task().num_inputs() of them); false
  // when there is no provisional model.
  bool PredictProvisionally(std::span<const double> inputs, std::span<double> outputs) {
    if (!provisional_) return false;
    const std::span<const double> predicted = provisional_->Predict(inputs);
    std::copy(predicted.begin(), predicted.end(), outputs.begin());
    return true;
  }
  int window_data_lines() const { return window_data_lines_; }

 private:
  // The line's outcome when it gives no answer (`reason` empty for a blank
  // line): now, or in its turn.
  absl::Status NoAnswer(std::int64_t line_number, std::string_view reason);
  absl::Status NoAnswer(std::int64_t line_number, std::string_view reason, OutcomeSink& sink);
  // A line joined the warm-up window: "held of window" when lines are
  // answered at arrival (serve), nothing yet when in their turn.
  absl::Status AnswerHeld(std::int64_t line_number, int held, int window);
  // `answered`: the line was answered "held" at arrival (serve's shape
  // window) and gets no answer now, only an error if it has one.
  absl::Status HandleParsed(const ParsedLine& parsed, std::span<const double> inputs,
                            std::span<const Real> feature_row, std::span<const double> targets,
                            OutcomeSink& sink, bool answered = false);
  // A data line joins the warm-up window: answered now by the provisional
  // model (unless `answered` already), learned by it, and held for the
  // model the window builds once full.
  absl::Status JoinWindow(std::int64_t line, std::span<const double> inputs, bool labelled,
                          std::span<const double> targets, OutcomeSink& sink, bool answered);
  // The task is known: the model stage is sized, and a model that needs no
  // window is built.
  absl::Status TaskDecided();
  absl::Status DecideDimension();
  // Serve's shape window (stream_pipeline_window.cpp): a line held unparsed
  // until the window decides the field count, answered as held; then the
  // decision, and the held lines parsed (shared with DecideDimension).
  absl::Status HoldForShape(std::int64_t line_number, std::string_view text);
  absl::Status DecideShape();
  absl::Status ParseHeldWindow();
  int UnparsedHeldLines() const;
  // Builds the model from the window, which it then learns (LearnWindow).
  absl::Status BuildAndLearnWindow();
  void LearnWindow();
  // The outcome of a held line that gives no answer.
  static bool TakeNoAnswer(const WarmUpLine& line, OutcomeSink& sink);
  absl::Status Verdict(bool go_on) const;

  const PipelineSettings settings_;
  OutcomeSink& sink_;
  InputStage input_;
  ModelStage<Real> model_;
  bool first_line_seen_ = false;
  // The warm-up queue, and the window's length in data lines.
  std::vector<WarmUpLine> held_;
  int window_lines_ = 0;
  int window_data_lines_ = 0;
  absl::Status build_error_;  // a model that could not be built is not retried
  // Answers the warm-up window's lines while the window fills.
  std::optional<ProvisionalModel> provisional_;
};

extern template class StreamPipeline<float>;
extern template class StreamPipeline<double>;

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_STREAM_PIPELINE_H_
