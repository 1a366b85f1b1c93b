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
#include "rffstream/learner_config.h"

ABSL_DECLARE_FLAG(std::string, precision);
ABSL_DECLARE_FLAG(std::string, targets);
ABSL_DECLARE_FLAG(int, classes);
ABSL_DECLARE_FLAG(int, standardize);

namespace rffstream::app {

// The learner configuration the flags describe, for inputs of the given dimension.
[[nodiscard]] absl::StatusOr<LearnerConfig> LearnerConfigFromFlags(int input_dimension);

// The number of model outputs the flags ask for: one per --targets column,
// one per class, or 1.
int OutputsFromFlags();

// Model flags given together with --load must agree with the loaded model:
// they are reported, never silently ignored.
[[nodiscard]] absl::Status CheckFlagsAgreeWithModel(const LearnerConfig& model,
                                                    const std::string& path);

// --gamma=auto: the caller sets gamma from a warm-up window (MedianHeuristicGamma).
bool GammaFromWarmUp();

// Checks the model flags that do not depend on the input.
[[nodiscard]] absl::Status ValidateModelFlags();

// A flag the user set to something other than its default.
template <class T>
bool IsSetByUser(const absl::Flag<T>& flag) {
  const absl::CommandLineFlag& handle = absl::GetFlagReflectionHandle(flag);
  return handle.CurrentValue() != handle.DefaultValue();
}

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_MODEL_FLAGS_H_
