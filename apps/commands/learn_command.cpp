#include "commands/learn_command.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "core/distinct_files.h"
#include "absl/strings/str_cat.h"
#include "core/command_status.h"
#include "core/gzip_input.h"
#include "front/learn_run.h"
#include "core/line_reader.h"
#include "rffstream/stream/model_loading.h"
#include "front/prediction_writer.h"
#include "core/stop_signals.h"
#include "front/stream_options.h"

namespace rffstream::app {
namespace {

// Loads the checkpoint (if any, and if no `start` is given), opens input and
// output, and runs over `share` of the input.
template <class Real>
absl::Status RunWithPrecision(const StreamOptions& options, RunMode mode,
                              const LineReader::Share& share,
                              std::optional<BasicCheckpoint<Real>> start,
                              RunCoordinator<Real>* coordinator) {
  std::string load_path = options.checkpoint.load;
  std::optional<BasicCheckpoint<Real>> checkpoint = std::move(start);
  if (checkpoint.has_value()) {
    load_path = "the first process's model";
  } else if (!load_path.empty()) {
    absl::StatusOr<BasicCheckpoint<Real>> loaded =
        LoadModel<Real>(load_path, options.model, options.input_format);
    if (!loaded.ok()) return loaded.status();
    checkpoint.emplace(*std::move(loaded));
  }
  int fd = STDIN_FILENO;
  std::unique_ptr<GzipInput> gzip;
  if (GzipInput::Names(options.input)) {
    absl::StatusOr<std::unique_ptr<GzipInput>> opened = GzipInput::Open(options.input);
    if (!opened.ok()) return AsIoFailure(opened.status());
    gzip = *std::move(opened);
    fd = gzip->fd();
  } else if (options.input != "-") {
    fd = ::open(options.input.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      return AsIoFailure(absl::NotFoundError(
          absl::StrCat("cannot open input file ", options.input, ": ", std::strerror(errno))));
    }
  }
  // predict exists to write predictions: to standard output unless told otherwise.
  const bool to_standard_output = mode == RunMode::kPredict && options.output.predictions.empty();
  absl::StatusOr<PredictionWriter> writer =
      PredictionWriter::Open(to_standard_output ? std::string("-") : options.output.predictions);
  if (!writer.ok()) {
    if (fd != STDIN_FILENO && gzip == nullptr) ::close(fd);
    return AsIoFailure(writer.status());
  }
  absl::StatusOr<MetricsLog> metrics_log =
      MetricsLog::Open(options.output.metrics_out, options.output.progress_every);
  if (!metrics_log.ok()) {
    if (fd != STDIN_FILENO && gzip == nullptr) ::close(fd);
    return AsIoFailure(metrics_log.status());
  }
  LineReader reader(fd, static_cast<std::size_t>(options.input_format.max_line_bytes));
  reader.KeepShare(share);
  // Alone (not one of mpirun's ranks, whose launcher forwards signals to
  // every rank), a signal stops the run in order: before any thread starts.
  std::optional<StopSignals> stop;
  if (coordinator == nullptr) stop.emplace([&reader] { reader.Cancel(); });
  LearnRun<Real> run(options, mode, *writer, options.input == "-" ? "stdin" : options.input,
                     *std::move(metrics_log), fd, coordinator);
  absl::Status status = absl::OkStatus();
  if (checkpoint.has_value()) status = run.Resume(*std::move(checkpoint), load_path);
  if (status.ok()) status = run.Run(reader, stop.has_value() ? &*stop : nullptr);
  if (gzip != nullptr) {
    // The input ended: was it the file's end, or a corrupt or cut one? (A
    // run stopped before the end leaves the decompressor to the destructor.)
    if (absl::Status whole = reader.reached_end() ? gzip->Finish() : absl::OkStatus();
        !whole.ok()) {
      KeepFirstFailure(status, AsIoFailure(absl::DataLossError(absl::StrCat(
                                   std::string(whole.message()), " (the lines before it were read)"))));
    }
  } else if (fd != STDIN_FILENO) {
    ::close(fd);
  }
  return status;
}

absl::Status RunStream(const StreamOptions& options, RunMode mode) {
  if (absl::Status status = ValidateStreamOptions(options, /*can_infer_dimension=*/true); !status.ok()) {
    return AsUsageError(status);
  }
  if (mode == RunMode::kPredict && options.checkpoint.load.empty()) {
    return absl::InvalidArgumentError("needs --load=FILE (the model to predict with)");
  }
  if (mode == RunMode::kPredict && options.output.predictions.empty()) {
    // predict writes to standard output by default: redirected into a file,
    // that file must not be its input or model either.
    const NamedPath inputs[] = {{"--input", options.input}, {"--load", options.checkpoint.load}};
    const NamedPath standard_output[] = {{"standard output", "-"}};
    if (absl::Status spared = CheckOutputsSpareInputs(inputs, standard_output); !spared.ok()) {
      return AsUsageError(spared);
    }
  }
  absl::StatusOr<int> real_bytes = ModelBytesPerNumber(options.model, options.checkpoint.load);
  if (!real_bytes.ok()) return real_bytes.status();
  return *real_bytes == 4 ? RunWithPrecision<float>(options, mode, {}, std::nullopt, nullptr)
                          : RunWithPrecision<double>(options, mode, {}, std::nullopt, nullptr);
}

}  // namespace

template <class Real>
absl::Status RunLearnPart(const StreamOptions& options, const LineReader::Share& share,
                          std::optional<BasicCheckpoint<Real>> start,
                          RunCoordinator<Real>& coordinator) {
  return RunWithPrecision<Real>(options, RunMode::kLearn, share, std::move(start), &coordinator);
}

template absl::Status RunLearnPart(const StreamOptions&, const LineReader::Share&,
                                   std::optional<BasicCheckpoint<float>>, RunCoordinator<float>&);
template absl::Status RunLearnPart(const StreamOptions&, const LineReader::Share&,
                                   std::optional<BasicCheckpoint<double>>, RunCoordinator<double>&);

absl::Status RunLearnCommand(const StreamOptions& options) {
  return RunStream(options, RunMode::kLearn);
}

absl::Status RunPredictCommand(const StreamOptions& options) {
  return RunStream(options, RunMode::kPredict);
}

}  // namespace rffstream::app
