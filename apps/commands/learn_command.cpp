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

// The input: standard input, a file, or the decompressed lines of a gzip
// file (whose descriptor `fd` then is). A file is closed at the end.
struct Input {
  int fd = STDIN_FILENO;
  std::unique_ptr<GzipInput> gzip;
  Input() = default;
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;
  ~Input() {
    if (fd != STDIN_FILENO && gzip == nullptr) ::close(fd);
  }
};

absl::Status OpenInput(const std::string& name, Input& input) {
  if (GzipInput::IsGzip(name)) {
    absl::StatusOr<std::unique_ptr<GzipInput>> opened = GzipInput::Open(name);
    if (!opened.ok()) return AsIoFailure(opened.status());
    input.gzip = *std::move(opened);
    input.fd = input.gzip->fd();
  } else if (name != "-") {
    const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      return AsIoFailure(absl::NotFoundError(
          absl::StrCat("cannot open input file ", name, ": ", std::strerror(errno))));
    }
    input.fd = fd;
  }
  return absl::OkStatus();
}

// The model to start from: `start` when given, else --load's (if any).
template <class Real>
absl::Status LoadStart(const StreamOptions& options, std::optional<BasicCheckpoint<Real>>& start,
                       std::string& source) {
  source = options.checkpoint.load;
  if (start.has_value()) {
    source = "the first process's model";
  } else if (!source.empty()) {
    absl::StatusOr<BasicCheckpoint<Real>> loaded =
        LoadModel<Real>(source, options.model, options.input_format);
    if (!loaded.ok()) return loaded.status();
    start.emplace(*std::move(loaded));
  }
  return absl::OkStatus();
}

// Loads the checkpoint (if any, and if no `start` is given), opens input and
// output, and runs over `share` of the input.
template <class Real>
absl::Status RunWithPrecision(const StreamOptions& options, RunMode mode,
                              const LineReader::Share& share,
                              std::optional<BasicCheckpoint<Real>> start,
                              RunCoordinator<Real>* coordinator) {
  std::string load_path;
  if (absl::Status loaded = LoadStart(options, start, load_path); !loaded.ok()) return loaded;
  Input input;
  if (absl::Status opened = OpenInput(options.input, input); !opened.ok()) return opened;
  // predict exists to write predictions: to standard output unless told otherwise.
  const bool to_standard_output = mode == RunMode::kPredict && options.output.predictions.empty();
  absl::StatusOr<PredictionWriter> writer =
      PredictionWriter::Open(to_standard_output ? std::string("-") : options.output.predictions);
  if (!writer.ok()) return AsIoFailure(writer.status());
  absl::StatusOr<MetricsLog> metrics_log =
      MetricsLog::Open(options.output.metrics_out, options.output.progress_every);
  if (!metrics_log.ok()) return AsIoFailure(metrics_log.status());
  LineReader reader(input.fd, static_cast<std::size_t>(options.input_format.max_line_bytes));
  reader.KeepShare(share);
  // Alone (not one of mpirun's ranks, whose launcher forwards signals to
  // every rank), a signal stops the run in order: before any thread starts.
  std::optional<StopSignals> stop;
  if (coordinator == nullptr) stop.emplace([&reader] { reader.Cancel(); });
  LearnRun<Real> run(options, mode, *writer, options.input == "-" ? "stdin" : options.input,
                     *std::move(metrics_log), input.fd, coordinator);
  absl::Status status = absl::OkStatus();
  if (start.has_value()) status = run.Resume(*std::move(start), load_path);
  if (status.ok()) status = run.Run(reader, stop.has_value() ? &*stop : nullptr);
  // The input ended: was it a gzip file's end, or a corrupt or cut one? (A
  // run stopped before the end leaves the decompressor to the destructor.)
  if (input.gzip != nullptr && reader.reached_end()) {
    if (absl::Status whole = input.gzip->Finish(); !whole.ok()) {
      // A cut or corrupt file is an input that failed (exit 1), whatever
      // else the run found (say, no line to learn before the cut).
      absl::Status cut = AsIoFailure(absl::DataLossError(
          absl::StrCat(std::string(whole.message()), " (the lines before it were read)")));
      KeepFirstFailure(cut, status);
      status = cut;
    }
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
