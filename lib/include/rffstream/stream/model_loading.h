// File: rffstream/stream/model_loading.h
//
// How every command that takes --load gets its model: the checkpoint decides
// its own precision, and the options given with it may only repeat what the
// model holds.
#ifndef RFFSTREAM_STREAM_MODEL_LOADING_H_
#define RFFSTREAM_STREAM_MODEL_LOADING_H_

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rffstream/stream/model_options.h"
#include "rffstream/stream/options.h"
#include "rffstream/checkpoint.h"

namespace rffstream {

// Bytes per number of the model: the checkpoint's at `load_path` when there
// is one (a --precision that differs is InvalidArgument), else --precision.
// Other codes: the checkpoint could not be read.
[[nodiscard]] absl::StatusOr<int> ModelBytesPerNumber(const ModelOptions& model,
                                                      const std::string& load_path);

// The checkpoint at `path`, checked against the options. InvalidArgument:
// they contradict it; DataLoss: it could not be read.
template <class Real>
absl::StatusOr<BasicCheckpoint<Real>> LoadModel(const std::string& path, const ModelOptions& model,
                                                const InputOptions& input) {
  absl::StatusOr<BasicCheckpoint<Real>> loaded = LoadCheckpoint<Real>(path);
  if (!loaded.ok()) return absl::DataLossError(loaded.status().message());
  if (absl::Status agrees =
          CheckOptionsAgreeWithModel(model, input, loaded->learner.config(), loaded->record.task, path);
      !agrees.ok()) {
    return agrees;
  }
  return loaded;
}

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_MODEL_LOADING_H_
