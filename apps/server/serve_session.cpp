#include "server/serve_session.h"

#include <cinttypes>
#include <utility>

#include "absl/strings/str_cat.h"
#include "rffstream/stream/model_options.h"
#include "rffstream/stream/option_text.h"
#include "core/printable_text.h"
#include "server/stats_answer.h"

namespace rffstream::app {
namespace {

PipelineSettings SettingsFor(const StreamOptions& options, int bytes_per_number) {
  PipelineSettings settings;
  settings.input = options.input_format;
  settings.model = options.model;
  settings.reads_header = false;
  settings.fields = options.server.fields;
  settings.shape_from_window = true;
  settings.lines_without_targets = true;
  settings.block_size = ServeBlockSize(options, bytes_per_number);
  settings.threads = options.parallel.threads;
  settings.with_variance = options.output.variance;
  settings.clip_predictions = options.output.clip_predictions;
  settings.warm_up_answers = WarmUpAnswers::kAtArrival;
  settings.input_name = "serve";
  settings.tune_report = options.output.tune_report;
  settings.learns = !options.server.follow;  // a replica only answers
  return settings;
}

}  // namespace

int ServeBlockSize(const StreamOptions& options, int bytes_per_number) {
  const OutputOptions& output = options.output;
  const bool blocks = options.model.forget.value_or(1.0) == 1.0 && !output.variance &&
                      (output.block_given ? output.block > 1 : bytes_per_number == 8);
  if (!blocks) return 1;
  return output.block_given ? output.block : kMaxLinesPerBatch;
}

template <class Real>
ServeSession<Real>::ServeSession(const StreamOptions& options, std::FILE* log)
    : save_path_(options.checkpoint.save),
      log_(log),
      pipeline_(SettingsFor(options, sizeof(Real)), *this) {
  if (options.server.follow) {
    follower_.emplace(options.checkpoint.load, MemoryLimitBytes(options.model), log);
  }
}

template <class Real>
std::size_t ServeSession<Real>::HandleLines(std::span<const std::string_view> lines,
                                            std::string& output, std::size_t output_budget) {
  output_ = &output;
  if (follower_.has_value()) {
    if (std::optional<BasicCheckpoint<Real>> newest = follower_->TakeNewest()) {
      // A replica's lines keep their shape: a model that reads its input
      // otherwise (other columns, inputs or classes) waits for a restart.
      // Its targets' offsets are its own: a model learned anew has another
      // window's mean.
      Task reads = newest->record.task;
      reads.target_offsets = pipeline_.task().target_offsets;
      if (!(reads == pipeline_.task())) {
        follower_->Refused();
        std::fprintf(log_,
                     "rffstream serve: --follow: the new model reads its input differently "
                     "(columns, inputs or classes); still answering with the one loaded before: "
                     "restart serve to follow it\n");
      } else if (absl::Status resumed = pipeline_.Resume(*std::move(newest), "the new model");
                 !resumed.ok()) {
        follower_->Refused();
        std::fprintf(log_, "rffstream serve: --follow: %s\n", std::string(resumed.message()).c_str());
      } else {
        follower_->Adopted();
      }
    }
  }
  const std::size_t output_start = output.size();
  std::size_t answered = 0;
  for (std::string_view line : lines) {
    // Answers wait in memory until the client reads them: stop at the
    // budget (lines in a block are answered when it is flushed, below).
    if (output.size() - output_start >= output_budget) {
      (void)pipeline_.FlushBlock();
      if (output.size() - output_start >= output_budget) break;
    }
    ++answered;
    if (!line.empty() && line.front() == '!') {
      (void)pipeline_.FlushBlock();  // answers stay in order
      absl::StrAppend(&output, Control(line.substr(1)), "\n");
      continue;
    }
    // An error here is this line's answer: the next line may do better (a
    // first line that cannot start the model), or get the same answer (a
    // model that cannot be built from the options).
    if (absl::Status status = pipeline_.Push(++lines_, line); !status.ok()) {
      AppendError(std::string(status.message()));
    }
  }
  (void)pipeline_.FlushBlock();
  output_ = nullptr;
  return answered;
}

template <class Real>
bool ServeSession<Real>::Take(const LineOutcome& outcome) {
  switch (outcome.kind) {
    case LineOutcome::Kind::kAnswer:
      for (std::size_t i = 0; i < outcome.values.size(); ++i) {
        absl::StrAppend(output_, i == 0 ? "" : ",", ShortestNumber(outcome.values[i]));
      }
      output_->push_back('\n');
      break;
    case LineOutcome::Kind::kHeld:
      absl::StrAppend(output_, "warming up (", outcome.held, " of ", outcome.window, ")\n");
      break;
    case LineOutcome::Kind::kBlank:
      AppendError("empty line");
      break;
    case LineOutcome::Kind::kBad:
      if (outcome.replayed) {
        std::fprintf(log_, "rffstream serve: warm-up line %" PRId64 ": %s (not learned)\n",
                     outcome.line_number, EscapeForLog(outcome.reason).c_str());
      } else {
        AppendError(outcome.reason);
      }
      break;
  }
  return true;
}

template <class Real>
void ServeSession<Real>::AppendError(std::string_view message) {
  absl::StrAppend(output_, "error: ", EscapeForLog(message), "\n");
}

template <class Real>
absl::Status ServeSession<Real>::Save() {
  if (save_path_.empty()) {
    return absl::FailedPreconditionError("no checkpoint file configured (start with --save=FILE)");
  }
  // Many !save requests in a row on an unchanged model cost one write, as
  // long as the file written is still there, untouched.
  const std::int64_t samples = pipeline_.model().samples_learned();
  if (samples == saved_samples_ && pipeline_.learner() != nullptr &&
      FileIdentity::Of(save_path_) == saved_file_) {
    return absl::OkStatus();
  }
  absl::Status saved = pipeline_.Save(save_path_);
  if (saved.ok()) {
    saved_samples_ = samples;
    saved_file_ = FileIdentity::Of(save_path_);
  }
  return saved;
}

template <class Real>
void ServeSession<Real>::SaveOnHangup() {
  if (save_path_.empty()) {
    std::fprintf(log_, "rffstream serve: SIGHUP: no --save, so nothing to save; serving on\n");
    return;
  }
  const absl::Status saved = Save();
  if (saved.ok()) {
    std::fprintf(log_, "rffstream serve: SIGHUP: saved %s; serving on\n", save_path_.c_str());
  } else {
    std::fprintf(log_, "rffstream serve: SIGHUP: checkpoint not saved: %s; serving on\n",
                 std::string(saved.message()).c_str());
  }
}

template <class Real>
absl::Status ServeSession<Real>::Stop() {
  std::string discarded;  // no client waits for the window's answers now
  output_ = &discarded;
  absl::Status finished = pipeline_.Finish();
  output_ = nullptr;
  if (!finished.ok()) return finished;
  return Save();
}

template <class Real>
std::string ServeSession<Real>::Control(std::string_view command) {
  if (command == "ping") return "pong";
  if (command == "stats") {
    std::string connections =
        absl::StrCat(" connections ", server_ != nullptr ? server_->open_connections() : 0,
                     " accepted ", server_ != nullptr ? server_->accepted_connections() : 0);
    if (follower_.has_value() && pipeline_.learner() != nullptr) {
      absl::StrAppend(&connections, " model_samples ", pipeline_.learner()->samples_learned(),
                      " model_loaded ", absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ",
                                                         follower_->loaded_at(), absl::UTCTimeZone()),
                      " reloads ", follower_->reloads(), " refused ", follower_->refusals());
    }
    return StatsAnswer(pipeline_.model(), connections);
  }
  if (command == "save") {
    const absl::Status status = Save();
    return status.ok() ? "ok" : absl::StrCat("error: ", EscapeForLog(std::string(status.message())));
  }
  return absl::StrCat("error: unknown command '!", EscapeForLog(command),
                      "' (commands: !ping, !stats, !save)");
}

template class ServeSession<float>;
template class ServeSession<double>;

}  // namespace rffstream::app
