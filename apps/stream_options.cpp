#include "stream_options.h"

#include "absl/strings/str_cat.h"
#include "input_format.h"
#include "model_options.h"
#include "rffstream/checkpoint.h"

namespace rffstream::app {

absl::Status ValidateStreamOptions(const StreamOptions& options, bool can_infer_dimension) {
  const OutputOptions& output = options.output;
  const CheckpointOptions& checkpoint = options.checkpoint;
  if (output.block < 1) return absl::InvalidArgumentError("--block must be >= 1");
  if (options.parallel.threads < 0 || options.parallel.threads > kMaxThreads) {
    return absl::InvalidArgumentError(
        absl::StrCat("--threads=", options.parallel.threads, ": must be in [0, ", kMaxThreads, "]"));
  }
  if (output.block > 1 && output.variance) {
    return absl::InvalidArgumentError(
        "--variance needs each prediction before the next update: use it with --block=1");
  }
  if (output.variance && OutputsFor(options.input_format) > 1) {
    return absl::InvalidArgumentError("--variance is for a single regression target");
  }
  if (options.model.standardize < 0) {
    return absl::InvalidArgumentError("--standardize must be >= 0");
  }
  if (options.input_format.max_line_bytes <= 0) {
    return absl::InvalidArgumentError("--max_line_bytes must be positive");
  }
  if (output.progress_every < 0) {
    return absl::InvalidArgumentError("--progress_every must be >= 0");
  }
  if (checkpoint.save_every < 0 || checkpoint.save_interval < 0) {
    return absl::InvalidArgumentError("--save_every and --save_interval must be >= 0");
  }
  if ((checkpoint.save_every > 0 || checkpoint.save_interval > 0) && checkpoint.save.empty()) {
    return absl::InvalidArgumentError("--save_every and --save_interval need --save=FILE");
  }
  // A checkpoint that cannot be written is found out now, not after hours of learning.
  if (!checkpoint.save.empty()) {
    if (absl::Status usable = CheckCheckpointPath(checkpoint.save); !usable.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--save: ", usable.message()));
    }
  }
  if (options.server.follow && (checkpoint.load.empty() || !checkpoint.save.empty())) {
    return absl::InvalidArgumentError(
        "--follow answers with the model at --load=FILE and learns nothing: it needs --load and "
        "takes no --save");
  }
  if (absl::Status status = ValidateInputOptions(options.input_format, can_infer_dimension);
      !status.ok()) {
    return status;
  }
  return ValidateModelOptions(options.model, options.input_format, !checkpoint.load.empty());
}

}  // namespace rffstream::app
