#include <string>

#include "absl/strings/str_cat.h"
#include "rffstream/stream/input_format.h"
#include "rffstream/stream/model_options.h"
#include "rffstream/stream/stream_pipeline.h"  // ValidatePipelineSettings

namespace rffstream {

absl::Status ValidatePipelineSettings(const PipelineSettings& settings, bool loads_model,
                                      bool can_infer_dimension) {
  if (settings.block_size < 1) return absl::InvalidArgumentError("--block must be >= 1");
  if (settings.block_size > 1 && settings.with_variance) {
    return absl::InvalidArgumentError(
        "--variance needs each prediction before the next update: use it with --block=1");
  }
  if (settings.with_variance && OutputsFor(settings.input) > 1) {
    return absl::InvalidArgumentError("--variance is for a single regression target");
  }
  if (settings.model.standardize < 0) {
    return absl::InvalidArgumentError("--standardize must be >= 0");
  }
  if (settings.input.max_line_bytes <= 0) {
    return absl::InvalidArgumentError("--max_line_bytes must be positive");
  }
  if (settings.fields < 0 || settings.fields == 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--fields=", settings.fields, ": a data line has at least 2 fields (inputs and a target); "
        "0 takes the count from the model or the warm-up"));
  }
  if (settings.input.given.Has("target") && settings.input.given.Has("targets")) {
    return absl::InvalidArgumentError(
        "--target and --targets are exclusive: --target names one target column, --targets several");
  }
  if (absl::Status input = ValidateInputOptions(settings.input, can_infer_dimension); !input.ok()) {
    return input;
  }
  return ValidateModelOptions(settings.model, settings.input, loads_model, settings.block_size);
}

}  // namespace rffstream
