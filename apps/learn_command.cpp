#include "learn_command.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "checkpoint_schedule.h"
#include "exit_codes.h"
#include "learn_output.h"
#include "line_reader.h"
#include "model_loading.h"
#include "parse_ahead.h"
#include "prediction_writer.h"
#include "stream_options.h"
#include "stream_pipeline.h"

namespace rffstream::app {
namespace {

// Whether a run learns from its labelled lines, or only predicts (and scores).
enum class RunMode { kLearn, kPredict };

// One run over one input stream: reads lines (parsed ahead on a thread of
// their own once the input stage knows how), drives the pipeline, saves
// checkpoints when due.
template <class Real>
class LearnRun {
 public:
  LearnRun(const StreamOptions& options, RunMode mode, PredictionWriter& writer,
           std::string input_name)
      : mode_(mode),
        writer_(writer),
        input_name_(std::move(input_name)),
        output_(writer, stderr, options.output, input_name_),
        pipeline_(Settings(options, mode, input_name_), output_),
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

  // Returns the exit code.
  int Run(LineReader& reader) {
    // The lines that decide the parser are read here; the rest are read and
    // parsed ahead on a thread of their own while this one learns.
    while (pipeline_.parser() == nullptr) {
      std::optional<LineReader::Line> line = reader.Next();
      if (!line.has_value()) break;
      lines_read_ = line->number;
      if (std::optional<int> exit_code = Step(pipeline_.Push(lines_read_, line->text, line->too_long))) {
        return *exit_code;
      }
    }
    if (pipeline_.parser() != nullptr) {
      ParseAhead<Real> parse_ahead(reader, *pipeline_.parser());
      bool mapping = false;
      while (true) {
        if (!mapping && pipeline_.learner() != nullptr) {
          parse_ahead.MapWith(*pipeline_.learner());
          mapping = true;
        }
        // About to wait for input: whoever reads the predictions of a live
        // stream gets every one made so far.
        if (!parse_ahead.Ready()) writer_.Flush();
        const typename ParseAhead<Real>::Batch* batch = parse_ahead.Next();
        if (batch == nullptr) break;
        // Whoever read the output has gone (`| head`): stop like a Unix filter.
        if (writer_.reader_gone()) break;
        for (int i = 0; i < batch->size(); ++i) {
          lines_read_ = batch->line(i).line_number;
          if (std::optional<int> exit_code = Step(pipeline_.PushParsed(
                  batch->line(i), batch->inputs(i), batch->feature_row(i), batch->targets(i)))) {
            return *exit_code;
          }
        }
      }
    }
    // (A reader stopped because the output's reader went away is no error.)
    if (!reader.status().ok() && !writer_.reader_gone()) {
      std::fprintf(stderr, "rffstream: %s: %s\n", input_name_.c_str(),
                   std::string(reader.status().message()).c_str());
      return kExitIoError;
    }
    if (absl::Status finished = pipeline_.Finish(); !finished.ok()) return Stop(finished);
    if (absl::Status status = writer_.Close(); !status.ok() && !writer_.reader_gone()) {
      std::fprintf(stderr, "rffstream: %s\n", std::string(status.message()).c_str());
      return kExitIoError;
    }
    if (!quiet_) output_.PrintSummary(lines_read_, mode_ == RunMode::kLearn ? "learned" : "scored");
    if (schedule_.enabled() && pipeline_.learner() != nullptr && !Save()) return kExitIoError;
    return kExitSuccess;
  }

 private:
  static PipelineSettings Settings(const StreamOptions& options, RunMode mode,
                                   const std::string& input_name) {
    PipelineSettings settings;
    settings.input = options.input_format;
    settings.model = options.model;
    settings.learns = mode == RunMode::kLearn;
    settings.block_size = mode == RunMode::kLearn ? options.output.block : 1;
    settings.with_variance = options.output.variance;
    settings.input_name = input_name;
    settings.quiet = options.output.quiet;
    settings.tune_report = options.output.tune_report;
    return settings;
  }

  // After a line: nullopt to go on (saving when due), or the exit code.
  std::optional<int> Step(const absl::Status& status) {
    if (!status.ok()) return Stop(status, lines_read_);
    if (schedule_.Due(pipeline_.model().samples_learned())) Save();
    return std::nullopt;
  }

  // The exit code of an error that stops the run, with its message (the
  // sink has printed a --strict stop's); `line` is where it was found, if
  // anywhere.
  int Stop(const absl::Status& status, std::int64_t line = 0) const {
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

  // Saves the checkpoint now; a failure is reported and the run goes on.
  bool Save() {
    if (absl::Status status = pipeline_.Save(schedule_.path()); !status.ok()) {
      std::fprintf(stderr, "rffstream: %s\n", std::string(status.message()).c_str());
      return false;
    }
    schedule_.MarkSaved(pipeline_.model().samples_learned());
    return true;
  }

  const RunMode mode_;
  PredictionWriter& writer_;
  const std::string input_name_;
  LearnOutput<Real> output_;
  StreamPipeline<Real> pipeline_;
  CheckpointSchedule schedule_;
  const bool quiet_;
  std::int64_t lines_read_ = 0;
};

// Loads the checkpoint (if any), opens input and output, and runs.
template <class Real>
int RunWithPrecision(const StreamOptions& options, RunMode mode, const char* command) {
  const std::string& load_path = options.checkpoint.load;
  std::optional<BasicCheckpoint<Real>> checkpoint;
  if (!load_path.empty()) {
    absl::StatusOr<BasicCheckpoint<Real>> loaded =
        LoadModel<Real>(load_path, options.model, options.input_format);
    if (!loaded.ok()) {
      std::fprintf(stderr, "%s: %s\n", command, std::string(loaded.status().message()).c_str());
      return loaded.status().code() == absl::StatusCode::kInvalidArgument ? kExitUsageError
                                                                           : kExitIoError;
    }
    checkpoint.emplace(*std::move(loaded));
  }
  int fd = STDIN_FILENO;
  if (options.input != "-") {
    fd = ::open(options.input.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      std::fprintf(stderr, "%s: cannot open input file %s: %s\n", command, options.input.c_str(),
                   std::strerror(errno));
      return kExitIoError;
    }
  }
  // predict exists to write predictions: to standard output unless told otherwise.
  const bool to_standard_output = mode == RunMode::kPredict && options.output.predictions.empty();
  absl::StatusOr<PredictionWriter> writer =
      PredictionWriter::Open(to_standard_output ? std::string("-") : options.output.predictions);
  if (!writer.ok()) {
    std::fprintf(stderr, "%s: %s\n", command, std::string(writer.status().message()).c_str());
    if (fd != STDIN_FILENO) ::close(fd);
    return kExitIoError;
  }
  LineReader reader(fd, static_cast<std::size_t>(options.input_format.max_line_bytes));
  LearnRun<Real> run(options, mode, *writer, options.input == "-" ? "stdin" : options.input);
  int exit_code = kExitSuccess;
  if (checkpoint.has_value()) exit_code = run.Resume(*std::move(checkpoint), load_path);
  if (exit_code == kExitSuccess) exit_code = run.Run(reader);
  if (fd != STDIN_FILENO) ::close(fd);
  return exit_code;
}

int RunStream(const StreamOptions& options, RunMode mode) {
  const char* command = mode == RunMode::kLearn ? "rffstream learn" : "rffstream predict";
  if (absl::Status status = ValidateStreamOptions(options, /*can_infer_dimension=*/true); !status.ok()) {
    std::fprintf(stderr, "%s: %s\n", command, std::string(status.message()).c_str());
    return kExitUsageError;
  }
  if (mode == RunMode::kPredict && options.checkpoint.load.empty()) {
    std::fprintf(stderr, "%s: needs --load=FILE (the model to predict with)\n", command);
    return kExitUsageError;
  }
  absl::StatusOr<int> real_bytes = ModelBytesPerNumber(options.model, options.checkpoint.load);
  if (!real_bytes.ok()) {
    std::fprintf(stderr, "%s: %s\n", command, std::string(real_bytes.status().message()).c_str());
    return real_bytes.status().code() == absl::StatusCode::kInvalidArgument ? kExitUsageError
                                                                             : kExitIoError;
  }
  return *real_bytes == 4 ? RunWithPrecision<float>(options, mode, command)
                          : RunWithPrecision<double>(options, mode, command);
}

}  // namespace

int RunLearnCommand(const StreamOptions& options) { return RunStream(options, RunMode::kLearn); }

int RunPredictCommand(const StreamOptions& options) {
  return RunStream(options, RunMode::kPredict);
}

}  // namespace rffstream::app
