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

#include "absl/cleanup/cleanup.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "front/checkpoint_schedule.h"
#include "core/command_status.h"
#include "core/exit_codes.h"
#include "core/input_head.h"
#include "front/learn_output.h"
#include "core/line_reader.h"
#include "core/options.h"
#include "front/parse_ahead.h"
#include "front/prediction_writer.h"
#include "front/run_coordinator.h"
#include "core/stop_signals.h"
#include "rffstream/stream/stream_pipeline.h"

namespace rffstream::app {

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
  absl::Status Resume(BasicCheckpoint<Real> checkpoint, std::string source) {
    if (absl::Status status = pipeline_.Resume(std::move(checkpoint), std::move(source));
        !status.ok()) {
      return Stop(status);
    }
    output_.ModelLoaded();
    if (mode_ == RunMode::kLearn) output_.ContinueProgress();
    schedule_.MarkSaved(pipeline_.model().samples_learned());
    return absl::OkStatus();
  }

  // Returns how the run ended (core/command_status.h). `stop`: the signals
  // that ask the run to stop (nullptr: none are watched).
  absl::Status Run(LineReader& reader, const StopSignals* stop = nullptr) {
    if (coordinator_ != nullptr) {
      if (absl::Status begun = coordinator_->Begin(pipeline_); !begun.ok()) return Stop(begun);
    }
    samples_at_start_ = pipeline_.model().samples_learned();
    if (absl::Status read = ReadAll(reader); !read.ok()) {
      // --strict stopped at a bad line: the lines before it were learned,
      // and are summed up and saved (one process; ranks stop together).
      if (read.code() != absl::StatusCode::kCancelled || coordinator_ != nullptr) return read;
      output_.ClearProgressLine();
      absl::Status concluded = Conclude();
      return ExitCodeOf(concluded) == kExitIoError ? concluded : read;
    }
    output_.ClearProgressLine();
    const int signal = stop != nullptr ? stop->received() : 0;
    // A reader stopped because the output's reader went away, because the
    // output failed (reported with the summary), or by a signal, is no
    // reading error.
    if (!reader.status().ok() && !writer_.reader_gone() && !writer_.failed() && signal == 0) {
      return AsIoFailure(absl::Status(
          reader.status().code(),
          absl::StrCat(input_name_, ": ", std::string(reader.status().message()))));
    }
    if (signal != 0) {
      std::fprintf(stderr, "rffstream: signal %d: stopped reading after line %" PRId64 "\n", signal,
                   lines_read_);
    }
    absl::Status concluded = Conclude();
    if (signal != 0) return StoppedBySignal(signal, std::move(concluded));
    // A signal as the input ended (a process group stopped whole) or later.
    if (const int late = stop != nullptr ? stop->received() : 0; late != 0) {
      std::fprintf(stderr, "rffstream: signal %d: came after the input ended (line %" PRId64 ")\n",
                   late, lines_read_);
      return StoppedBySignal(late, std::move(concluded));
    }
    return concluded;
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
    settings.clip_predictions = options.output.clip_predictions;
    settings.input_name = input_name;
    settings.quiet = options.output.quiet;
    settings.tune_report = options.output.tune_report;
    // A loaded model knows its columns: nothing to read ahead for.
    if (options.input_format.categorical == "auto" && options.checkpoint.load.empty()) {
      settings.input_head = ReadInputHead(input_fd);
    }
    return settings;
  }

  // Reads, answers and learns every line; ok at the end of input (or once
  // reading stopped), else the error that stopped it.
  absl::Status ReadAll(LineReader& reader) {
    // The lines that decide the parser are read here; the rest are read and
    // parsed ahead on a thread of their own while this one learns.
    while (pipeline_.parser() == nullptr) {
      std::optional<LineReader::Line> line = reader.Next();
      if (!line.has_value()) return absl::OkStatus();
      lines_read_ = line->number;
      if (absl::Status stepped = Step(pipeline_.Push(lines_read_, line->text, line->too_long));
          !stepped.ok()) {
        return stepped;
      }
    }
    ParseAhead<Real> parse_ahead(reader, *pipeline_.parser());
    bool mapping = false;
    // The model may change its feature map as it grows (--gamma=auto):
    // the reading thread stops mapping with it first, and starts again with
    // the next batch.
    pipeline_.mutable_model().set_before_feature_map_change([&] {
      parse_ahead.StopMapping();
      mapping = false;
    });
    absl::Cleanup unhook = [this] { pipeline_.mutable_model().set_before_feature_map_change(nullptr); };
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
      if (batch == nullptr) return absl::OkStatus();
      // Whoever read the output has gone (`| head`): stop like a Unix
      // filter. A failed write (a full disk) stops the run: the model is
      // still whole, and is saved.
      if (writer_.reader_gone() || writer_.failed()) {
        reader.Cancel();
        return absl::OkStatus();
      }
      for (int i = 0; i < batch->size(); ++i) {
        lines_read_ = batch->line(i).line_number;
        if (absl::Status stepped = Step(pipeline_.PushParsed(
                batch->line(i), batch->inputs(i), batch->feature_row(i), batch->targets(i)));
            !stepped.ok()) {
          return stepped;
        }
      }
    }
  }

  // After the last line: the model finished, the summary, the save; the
  // first failure among them, if any.
  absl::Status Conclude() {
    if (absl::Status finished = pipeline_.Finish(); !finished.ok()) return Stop(finished);
    RunTotals totals = output_.Totals(lines_read_);
    bool reports = true;
    if (coordinator_ != nullptr) {
      absl::StatusOr<bool> reporting = coordinator_->Finish(pipeline_, totals);
      if (!reporting.ok()) return Stop(reporting.status());
      reports = *reporting;
    }
    absl::Status failure = absl::OkStatus();
    if (absl::Status status = writer_.Close(); !status.ok() && !writer_.reader_gone()) {
      KeepFirstFailure(failure, AsIoFailure(absl::Status(
                                    status.code(), absl::StrCat(std::string(status.message()),
                                                                " (stopped after line ",
                                                                lines_read_, ")"))));
    }
    // A metrics file that could not be written is reported; the model is
    // still saved.
    KeepFirstFailure(failure, AsIoFailure(output_.FinishMetricsLog()));
    if (!reports) return failure;
    if (!quiet_) output_.PrintSummary(totals, mode_ == RunMode::kLearn ? "learned" : "scored");
    const bool learned_nothing =
        mode_ == RunMode::kLearn && pipeline_.model().samples_learned() == samples_at_start_;
    const bool answered_nothing = mode_ == RunMode::kPredict && output_.answered() == 0;
    if (schedule_.enabled()) {
      if (pipeline_.learner() == nullptr) {
        std::fprintf(stderr, "rffstream: %s was not saved: %s held no line to build a model from\n",
                     schedule_.path().c_str(), input_name_.c_str());
      } else if (!Save()) {
        // Reported by Save() already.
        KeepFirstFailure(failure, AsIoFailure(absl::UnavailableError("")));
      }
    }
    // A run that learned (or, predicting, answered) nothing says so and
    // does not pass for a success.
    if ((learned_nothing || answered_nothing) && failure.ok()) {
      return AsBadInput(absl::FailedPreconditionError(absl::StrCat(
          input_name_, ": no line was ", learned_nothing ? "learned" : "answered", " (", lines_read_,
          " read)")));
    }
    return failure;
  }

  // After a line: ok to go on (saving when due), or the error that stops
  // the run.
  absl::Status Step(const absl::Status& status) {
    if (!status.ok()) return Stop(status, lines_read_);
    if (coordinator_ != nullptr) {
      if (absl::Status synced = coordinator_->AfterLine(pipeline_); !synced.ok()) return Stop(synced);
    }
    if (schedule_.Due(pipeline_.model().samples_learned())) Save();
    return absl::OkStatus();
  }

  // An error that stops the run, as the command reports it: a --strict stop
  // (kCancelled, whose line the sink has printed), a setting that cannot
  // work (kInvalidArgument, kResourceExhausted), or else the input's fault,
  // named with `line` where it was found, if anywhere.
  absl::Status Stop(const absl::Status& status, std::int64_t line = 0) {
    output_.ClearProgressLine();
    if (status.code() == absl::StatusCode::kCancelled) return AsBadInput(absl::CancelledError());
    if (status.code() == absl::StatusCode::kInvalidArgument ||
        status.code() == absl::StatusCode::kResourceExhausted) {
      return AsUsageError(status);
    }
    const std::string where = line > 0 ? absl::StrCat(": line ", line) : "";
    return AsBadInput(absl::Status(
        status.code(), absl::StrCat(input_name_, where, ": ", std::string(status.message()))));
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
