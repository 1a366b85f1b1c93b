// File: rffstream/stream/model_options.h
//
// What the model options mean: the learner configuration they describe, the
// memory limit, the automatic choices left to the warm-up window, and their
// agreement with a loaded model.
#ifndef RFFSTREAM_STREAM_MODEL_OPTIONS_H_
#define RFFSTREAM_STREAM_MODEL_OPTIONS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rffstream/stream/options.h"
#include "rffstream/learner_config.h"
#include "rffstream/task.h"

namespace rffstream {

// The learner configuration for a task's inputs and outputs. An automatic
// kernel, bandwidth or ridge gets a stand-in until the warm-up window
// chooses it.
[[nodiscard]] absl::StatusOr<LearnerConfig> LearnerConfigFromOptions(const ModelOptions& options,
                                                                     int input_dimension,
                                                                     int num_outputs);

// The number of model outputs the input options ask for: one per --targets
// column, one per class, or 1.
int OutputsFor(const InputOptions& input);

// 4 for float32, 8 for float64.
int BytesPerNumber(const ModelOptions& options);

// The most memory a model may take: --max_model_memory_mb, by default half
// the physical memory.
double MemoryLimitBytes(const ModelOptions& options);

// Refuses (ResourceExhausted, naming the estimate and the limit) a model
// larger than --max_model_memory_mb, counting `held_rows` rows of a warm-up
// window held dense until the model is built, and blocks of `block_size`.
[[nodiscard]] absl::Status CheckModelFitsMemory(const LearnerConfig& config,
                                                const ModelOptions& options,
                                                std::int64_t held_rows = 0, int block_size = 1);

// Options given together with --load must agree with the loaded model and
// its task: repeating the model's values is fine, a different value is an
// error that names both.
[[nodiscard]] absl::Status CheckOptionsAgreeWithModel(const ModelOptions& options,
                                                      const InputOptions& input,
                                                      const LearnerConfig& model, const Task& task,
                                                      const std::string& path);

// --gamma=auto (the default, unless lengthscales are given), --ridge=auto
// and --kernel=auto: chosen on the warm-up window (TuneOnWarmUp).
bool GammaFromWarmUp(const ModelOptions& options);
bool RidgeFromWarmUp(const ModelOptions& options);
bool KernelFromWarmUp(const ModelOptions& options);
// --sampler=leverage: the features are selected on the warm-up window.
bool FeaturesFromWarmUp(const ModelOptions& options);
bool ChoosesOnWarmUp(const ModelOptions& options);
// --forget=auto (the default): β = 1, and the model starts over when the
// stream drifts (rffstream/stream/drift_tracker.h).
bool TracksDrift(const ModelOptions& options);

// A classifier's warm-up window is at least this many lines per class.
inline constexpr int kWarmUpLinesPerClass = 80;
// The most classes a classifier may have: its running confusion counts
// take K² numbers (4096 classes: 128 MiB).
inline constexpr int kMaxClasses = 4096;
// What an automatic ridge falls back to when the window cannot choose.
inline constexpr double kFallbackRidge = 1e-2;

// The warm-up window's length: --standardize when given, else the default,
// at least kWarmUpLinesPerClass a class for a classifier; 0 when nothing is
// decided from the data.
int WarmUpWindowLines(const ModelOptions& options, int num_classes);

// Checks the model options that do not depend on the input (a loaded model
// brings its task: --loss=hinge needs no --classes then), learning in
// blocks of `block_size`.
[[nodiscard]] absl::Status ValidateModelOptions(const ModelOptions& options,
                                                const InputOptions& input, bool loads_model,
                                                int block_size = 1);

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_MODEL_OPTIONS_H_
