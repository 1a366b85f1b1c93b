// File: apps/front/learn_run.h
//
// One run of `learn` or `predict` over one input stream: reads lines (parsed
// ahead on a thread of their own once the input stage knows how), drives the
// stream pipeline, writes the answers and the summary, saves checkpoints when
// due; with a coordinator, in step with other processes.
#ifndef RFFSTREAM_APPS_LEARN_RUN_H_
#define RFFSTREAM_APPS_LEARN_RUN_H_

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "front/checkpoint_schedule.h"
#include "core/exit_codes.h"
#include "core/input_head.h"
#include "front/learn_output.h"
#include "core/line_reader.h"
#include "core/options.h"
#include "front/parse_ahead.h"
#include "front/prediction_writer.h"
#include "core/stop_signals.h"
#include "rffstream/stream/stream_pipeline.h"

namespace rffstream::app {

// Processes that learn one stream together (commands/distributed_learn.h).
template <class Real>
class RunCoordinator {
 public:
  virtual ~RunCoordinator() = default;
  // Before the first line (after a model given to start from is in place).
  [[nodiscard]] virtual absl::Status Begin(StreamPipeline<Real>& pipeline) = 0;
  // After each line: may share or merge the model with the others.
  [[nodiscard]] virtual absl::Status AfterLine(StreamPipeline<Real>& pipeline) = 0;
  // At the end of this process's input, before the summary and the save:
  // the last merge. May replace `totals` by every process's; returns whether
  // this process reports and saves.
  [[nodiscard]] virtual absl::StatusOr<bool> Finish(StreamPipeline<Real>& pipeline,
                                                    RunTotals& totals) = 0;
};

// Whether a run learns from its labelled lines, or only predicts (and scores).
enum class RunMode { kLearn, kPredict };

// One run over one input stream: reads lines (parsed ahead on a thread of
// their own once the input stage knows how), drives the pipeline, saves
// checkpoints when due.
template <class Real>
class LearnRun {
 public:
  // `coordinator`: the processes this run learns with (nullptr: none).
  // `metrics_log`: --metrics_out, opened; `input_fd`: the input, whose
  // progress a terminal is shown.
  LearnRun(const StreamOptions& options, RunMode mode, PredictionWriter& writer,
           std::string input_name, MetricsLog metrics_log, int input_fd,
           RunCoordinator<Real>* coordinator = nullptr)
      : mode_(mode),
        coordinator_(coordinator),
        writer_(writer),
        input_name_(std::move(input_name)),
        output_(writer, stderr, options.output, input_name_, std::move(metrics_log),
                ProgressLine(stderr, input_fd, !options.output.quiet && !writer.on_terminal())),
        pipeline_(Settings(options, mode, input_name_, input_fd), output_),
        schedule_(mode == RunMode::kLearn ? options.checkpoint.save : "",
                  options.checkpoint.save_every, absl::Seconds(options.checkpoint.save_interval)),
        quiet_(options.output.quiet) {
    output_.Watch(pipeline_.model());
  }

  // Starts from a loaded model; learning continues its metrics.
  int Resume(BasicCheckpoint<Real> checkpoint, std::string source) {
    if (absl::Status status = pipeline_.Resume(std::move(checkpoint), std::move(source));
        !status.ok()) {
      return Stop(status);
    }
    if (mode_ == RunMode::kLearn) output_.ContinueProgress();
    schedule_.MarkSaved(pipeline_.model().samples_learned());
    return kExitSuccess;
  }

  // Returns the exit code. `stop`: the signals that ask the run to stop
  // (nullptr: none are watched).
  int Run(LineReader& reader, const StopSignals* stop = nullptr) {
    if (coordinator_ != nullptr) {
      if (absl::Status begun = coordinator_->Begin(pipeline_); !begun.ok()) return Stop(begun);
    }
    samples_at_start_ = pipeline_.model().samples_learned();
    if (std::optional<int> exit_code = ReadAll(reader)) return *exit_code;
    output_.ClearProgressLine();
    const int signal = stop != nullptr ? stop->received() : 0;
    // A reader stopped because the output's reader went away, because the
    // output failed (reported with the summary), or by a signal, is no
    // reading error.
    if (!reader.status().ok() && !writer_.reader_gone() && !writer_.failed() && signal == 0) {
      std::fprintf(stderr, "rffstream: %s: %s\n", input_name_.c_str(),
                   std::string(reader.status().message()).c_str());
      return kExitIoError;
    }
    if (signal != 0) {
      std::fprintf(stderr, "rffstream: signal %d: stopped reading after line %" PRId64 "\n", signal,
                   lines_read_);
    }
    const int exit_code = Conclude();
    return signal != 0 ? 128 + signal : exit_code;
  }

 private:
  static PipelineSettings Settings(const StreamOptions& options, RunMode mode,
                                   const std::string& input_name, int input_fd) {
    PipelineSettings settings;
    settings.input = options.input_format;
    settings.model = options.model;
    settings.learns = mode == RunMode::kLearn;
    settings.lines_without_targets = mode == RunMode::kPredict;
    settings.block_size = mode == RunMode::kLearn ? options.output.block : 1;
    settings.threads = options.parallel.threads;
    settings.with_variance = options.output.variance;
    settings.input_name = input_name;
    settings.quiet = options.output.quiet;
    settings.tune_report = options.output.tune_report;
    // A loaded model knows its columns: nothing to read ahead for.
    if (options.input_format.categorical == "auto" && options.checkpoint.load.empty()) {
      settings.input_head = ReadInputHead(input_fd);
    }
    return settings;
  }

  // Reads, answers and learns every line; nullopt at the end of input (or
  // once reading stopped), else the exit code of an error.
  std::optional<int> ReadAll(LineReader& reader) {
    // The lines that decide the parser are read here; the rest are read and
    // parsed ahead on a thread of their own while this one learns.
    while (pipeline_.parser() == nullptr) {
      std::optional<LineReader::Line> line = reader.Next();
      if (!line.has_value()) return std::nullopt;
      lines_read_ = line->number;
      if (std::optional<int> exit_code = Step(pipeline_.Push(lines_read_, line->text, line->too_long))) {
        return exit_code;
      }
    }
    ParseAhead<Real> parse_ahead(reader, *pipeline_.parser());
    bool mapping = false;
    while (true) {
      if (!mapping && pipeline_.learner() != nullptr &&
          pipeline_.learner()->thread_pool() == nullptr) {
        parse_ahead.MapWith(*pipeline_.learner());
        mapping = true;
      }
      // About to wait for input: whoever reads the predictions of a live
      // stream gets every one made so far.
      if (!parse_ahead.Ready()) writer_.Flush();
      const typename ParseAhead<Real>::Batch* batch = parse_ahead.Next();
      if (batch == nullptr) return std::nullopt;
      // Whoever read the output has gone (`| head`): stop like a Unix
      // filter. A failed write (a full disk) stops the run: the model is
      // still whole, and is saved.
      if (writer_.reader_gone() || writer_.failed()) {
        reader.Cancel();
        return std::nullopt;
      }
      for (int i = 0; i < batch->size(); ++i) {
        lines_read_ = batch->line(i).line_number;
        if (std::optional<int> exit_code = Step(pipeline_.PushParsed(
                batch->line(i), batch->inputs(i), batch->feature_row(i), batch->targets(i)))) {
          return exit_code;
        }
      }
    }
  }

  // After the last line: the model finished, the summary, the save; the
  // exit code.
  int Conclude() {
    if (absl::Status finished = pipeline_.Finish(); !finished.ok()) return Stop(finished);
    RunTotals totals = output_.Totals(lines_read_);
    bool reports = true;
    if (coordinator_ != nullptr) {
      absl::StatusOr<bool> reporting = coordinator_->Finish(pipeline_, totals);
      if (!reporting.ok()) return Stop(reporting.status());
      reports = *reporting;
    }
    int exit_code = kExitSuccess;
    if (absl::Status status = writer_.Close(); !status.ok() && !writer_.reader_gone()) {
      std::fprintf(stderr, "rffstream: %s (stopped after line %" PRId64 ")\n",
                   std::string(status.message()).c_str(), lines_read_);
      exit_code = kExitIoError;
    }
    // A metrics file that could not be written is reported; the model is
    // still saved.
    if (absl::Status logged = output_.FinishMetricsLog(); !logged.ok()) {
      std::fprintf(stderr, "rffstream: %s\n", std::string(logged.message()).c_str());
      exit_code = kExitIoError;
    }
    if (!reports) return exit_code;
    if (!quiet_) output_.PrintSummary(totals, mode_ == RunMode::kLearn ? "learned" : "scored");
    const bool learned_nothing =
        mode_ == RunMode::kLearn && pipeline_.model().samples_learned() == samples_at_start_;
    if (schedule_.enabled()) {
      if (pipeline_.learner() == nullptr) {
        std::fprintf(stderr, "rffstream: %s was not saved: %s held no line to build a model from\n",
                     schedule_.path().c_str(), input_name_.c_str());
      } else if (!Save()) {
        exit_code = kExitIoError;
      }
    }
    // A run that learned nothing says so and does not pass for a success.
    if (learned_nothing && exit_code == kExitSuccess) {
      std::fprintf(stderr, "rffstream: %s: no line was learned (%" PRId64 " read)\n",
                   input_name_.c_str(), lines_read_);
      exit_code = kExitBadInput;
    }
    return exit_code;
  }

  // After a line: nullopt to go on (saving when due), or the exit code.
  std::optional<int> Step(const absl::Status& status) {
    if (!status.ok()) return Stop(status, lines_read_);
    if (coordinator_ != nullptr) {
      if (absl::Status synced = coordinator_->AfterLine(pipeline_); !synced.ok()) return Stop(synced);
    }
    if (schedule_.Due(pipeline_.model().samples_learned())) Save();
    return std::nullopt;
  }

  // The exit code of an error that stops the run, with its message (the
  // sink has printed a --strict stop's); `line` is where it was found, if
  // anywhere.
  int Stop(const absl::Status& status, std::int64_t line = 0) {
    output_.ClearProgressLine();
    if (status.code() == absl::StatusCode::kCancelled) return kExitBadInput;
    const std::string message(status.message());
    if (status.code() == absl::StatusCode::kInvalidArgument ||
        status.code() == absl::StatusCode::kResourceExhausted) {
      std::fprintf(stderr, "rffstream: %s\n", message.c_str());
      return kExitUsageError;
    }
    const std::string where = line > 0 ? absl::StrCat(": line ", line) : "";
    std::fprintf(stderr, "rffstream: %s%s: %s\n", input_name_.c_str(), where.c_str(), message.c_str());
    return kExitBadInput;
  }

  // Saves the checkpoint now; a failure is reported (once for each
  // different reason) and the run goes on, the schedule backing off.
  bool Save() {
    if (absl::Status status = pipeline_.Save(schedule_.path()); !status.ok()) {
      schedule_.MarkFailed(pipeline_.model().samples_learned());
      const std::string message(status.message());
      if (message != last_save_error_) {
        output_.ClearProgressLine();
        std::fprintf(stderr, "rffstream: %s (retrying less and less often)\n", message.c_str());
        last_save_error_ = message;
      }
      return false;
    }
    if (!last_save_error_.empty()) {
      std::fprintf(stderr, "rffstream: saved %s again\n", schedule_.path().c_str());
      last_save_error_.clear();
    }
    schedule_.MarkSaved(pipeline_.model().samples_learned());
    return true;
  }

  const RunMode mode_;
  RunCoordinator<Real>* const coordinator_;
  PredictionWriter& writer_;
  const std::string input_name_;
  LearnOutput<Real> output_;
  StreamPipeline<Real> pipeline_;
  CheckpointSchedule schedule_;
  const bool quiet_;
  std::int64_t lines_read_ = 0;
  std::int64_t samples_at_start_ = 0;
  std::string last_save_error_;  // of the last failed save, until one succeeds
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_LEARN_RUN_H_
