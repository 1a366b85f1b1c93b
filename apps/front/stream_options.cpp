#include "front/stream_options.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/distinct_files.h"
#include "rffstream/stream/stream_pipeline.h"
#include "rffstream/atomic_file.h"
#include "rffstream/checkpoint.h"

namespace rffstream::app {
namespace {

// The values each option takes (blocks, threads, counts, intervals), and
// the options that exclude each other.
absl::Status CheckValues(const StreamOptions& options) {
  const OutputOptions& output = options.output;
  const CheckpointOptions& checkpoint = options.checkpoint;
  if (options.parallel.threads < 0 || options.parallel.threads > kMaxThreads) {
    return absl::InvalidArgumentError(
        absl::StrCat("--threads=", options.parallel.threads, ": must be in [0, ", kMaxThreads, "]"));
  }
  if (output.progress_every < 0) {
    return absl::InvalidArgumentError("--progress_every must be >= 0");
  }
  // Written so that NaN fails too (it would silently mean "never").
  if (checkpoint.save_every < 0 || !(checkpoint.save_interval >= 0) ||
      !std::isfinite(checkpoint.save_interval)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--save_every and --save_interval must be >= 0 and finite, got ", checkpoint.save_every,
        " and ", checkpoint.save_interval));
  }
  const ServerOptions& server = options.server;
  if (!(server.idle_timeout >= 0) || !std::isfinite(server.idle_timeout)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--idle_timeout=", server.idle_timeout, ": must be >= 0 and finite seconds (0: never)"));
  }
  return absl::OkStatus();
}

// What the stream pipeline itself checks, as any transport of it does.
PipelineSettings SettingsToCheck(const StreamOptions& options) {
  PipelineSettings settings;
  settings.input = options.input_format;
  settings.model = options.model;
  settings.block_size = options.output.block;
  settings.with_variance = options.output.variance;
  settings.fields = options.server.fields;
  return settings;
}

// The files: each option that needs another has it, no output is an input,
// and a checkpoint path can be written.
absl::Status CheckFiles(const StreamOptions& options) {
  const OutputOptions& output = options.output;
  const CheckpointOptions& checkpoint = options.checkpoint;
  if ((checkpoint.save_every > 0 || checkpoint.save_interval > 0) && checkpoint.save.empty()) {
    return absl::InvalidArgumentError("--save_every and --save_interval need --save=FILE");
  }
  // No output may be an input. --save may name the model --load read: it is
  // replaced whole, atomically, once the new model is complete.
  const NamedPath predictions{"--predictions", output.predictions};
  const NamedPath metrics_out{"--metrics_out", output.metrics_out};
  const NamedPath port_file{"--port_file", options.server.port_file};
  const NamedPath load{"--load", checkpoint.load};
  const NamedPath save{"--save", checkpoint.save};
  const NamedPath input{"--input", options.input};
  // serve's Unix socket is a file it creates, too.
  const std::string& listen = options.server.listen;
  const NamedPath socket{"--listen", absl::StartsWith(listen, "unix:") ? listen.substr(5) : ""};
  const NamedPath outputs_but_save[] = {predictions, metrics_out, port_file, socket};
  const NamedPath outputs[] = {predictions, metrics_out, port_file, socket, save};
  if (absl::Status spared = CheckOutputsSpareInputs({&load, 1}, outputs_but_save); !spared.ok()) {
    return spared;
  }
  if (absl::Status spared = CheckOutputsSpareInputs({&input, 1}, outputs); !spared.ok()) {
    return spared;
  }
  // The log, appended to an input file, would be read back as data. (Standard
  // error may well be standard output's file: 2>&1 is no clash; and a
  // terminal or a pipe is no file to spare.)
  struct stat log;
  if (::fstat(STDERR_FILENO, &log) == 0 && S_ISREG(log.st_mode)) {
    const NamedPath inputs[] = {input, load};
    const NamedPath standard_error[] = {{"standard error", kStandardError}};
    if (absl::Status spared = CheckOutputsSpareInputs(inputs, standard_error); !spared.ok()) {
      return spared;
    }
  }
  // A checkpoint that cannot be written is found out now, not after hours of learning.
  if (!checkpoint.save.empty()) {
    if (absl::Status usable = CheckCheckpointPath(checkpoint.save); !usable.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--save: ", usable.message()));
    }
  }
  if (!options.server.port_file.empty()) {
    if (absl::Status usable = CheckWritablePath(options.server.port_file, "--port_file");
        !usable.ok()) {
      return absl::InvalidArgumentError(usable.message());
    }
  }
  if (options.server.follow && (checkpoint.load.empty() || !checkpoint.save.empty())) {
    return absl::InvalidArgumentError(
        "--follow answers with the model at --load=FILE and learns nothing: it needs --load and "
        "takes no --save");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateStreamOptions(const StreamOptions& options, bool can_infer_dimension) {
  if (absl::Status values = CheckValues(options); !values.ok()) return values;
  if (absl::Status pipeline = ValidatePipelineSettings(
          SettingsToCheck(options), !options.checkpoint.load.empty(), can_infer_dimension);
      !pipeline.ok()) {
    return pipeline;
  }
  return CheckFiles(options);
}

}  // namespace rffstream::app
