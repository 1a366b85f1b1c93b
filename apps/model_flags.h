// File: apps/model_flags.h
//
// The model flags shared by the commands that build or load a learner (learn,
// predict, serve): kernel, features, ridge, forgetting, outputs, precision.
#ifndef RFFSTREAM_APPS_MODEL_FLAGS_H_
#define RFFSTREAM_APPS_MODEL_FLAGS_H_

#include <string>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/status/statusor.h"
#include "command_line.h"
#include "rffstream/learner_config.h"
#include "rffstream/task.h"

ABSL_DECLARE_FLAG(std::string, precision);
ABSL_DECLARE_FLAG(std::string, targets);
ABSL_DECLARE_FLAG(int, classes);
ABSL_DECLARE_FLAG(int, standardize);

namespace rffstream::app {

// The learner configuration the flags describe, for a task's inputs and outputs.
[[nodiscard]] absl::StatusOr<LearnerConfig> LearnerConfigFromFlags(int input_dimension,
                                                                   int num_outputs);

// The number of model outputs the flags ask for: one per --targets column,
// one per class, or 1.
int OutputsFromFlags();

// Refuses (ResourceExhausted, naming the estimate and the limit) a model
// larger than --max_model_memory_mb.
[[nodiscard]] absl::Status CheckModelFitsMemory(const LearnerConfig& config, int bytes_per_number);

// Flags given together with --load must agree with the loaded model and its
// task: repeating the model's values is fine, a different value is an error
// that names both.
[[nodiscard]] absl::Status CheckFlagsAgreeWithModel(const LearnerConfig& model, const Task& task,
                                                    const std::string& path);

// --gamma=auto (the default, unless lengthscales are given) and
// --ridge=auto: the caller chooses them on a warm-up window (TuneOnWarmUp).
bool GammaFromWarmUp();
bool RidgeFromWarmUp();
// --kernel=auto: chosen with them.
bool KernelFromWarmUp();

// The warm-up window by default: standardization and tuning; a classifier's
// is at least this many lines per class.
inline constexpr int kDefaultWarmUpLines = 256;
inline constexpr int kWarmUpLinesPerClass = 80;
// What an automatic ridge falls back to when the window cannot choose.
inline constexpr double kFallbackRidge = 1e-2;

// Checks the model flags that do not depend on the input.
[[nodiscard]] absl::Status ValidateModelFlags();

// A flag the command line named (even at its default value), or that was
// set to something other than its default.
template <class T>
bool IsSetByUser(const absl::Flag<T>& flag) {
  const absl::CommandLineFlag& handle = absl::GetFlagReflectionHandle(flag);
  const absl::string_view name = handle.Name();
  return WasGivenOnCommandLine(std::string_view(name.data(), name.size())) ||
         handle.CurrentValue() != handle.DefaultValue();
}

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_MODEL_FLAGS_H_
