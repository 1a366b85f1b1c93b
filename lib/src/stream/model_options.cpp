#include "rffstream/stream/model_options.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "rffstream/stream/input_format.h"
#include "rffstream/stream/option_text.h"
#include "rffstream/feature_map_config.h"

namespace rffstream {

int OutputsFor(const InputOptions& input) {
  if (input.classes > 0) return input.classes;
  const std::string& targets = input.targets;
  if (targets.empty()) return 1;
  return static_cast<int>(std::count(targets.begin(), targets.end(), ',')) + 1;
}

namespace {

// A model's lengthscales as --lengthscales spells them, exactly.
std::string ModelLengthscales(const std::vector<double>& lengthscales) {
  ModelOptions spelled;
  spelled.lengthscales = lengthscales;
  return ModelOptionText(spelled, "lengthscales");
}

// The bandwidth comes from lengthscales when they are given.
bool LengthscalesGiven(const ModelOptions& options) {
  return options.lengthscale != 0.0 || !options.lengthscales.empty();
}

}  // namespace

int BytesPerNumber(const ModelOptions& options) {
  return options.precision == Precision::kFloat32 ? 4 : 8;
}

absl::StatusOr<LearnerConfig> LearnerConfigFromOptions(const ModelOptions& options,
                                                      int input_dimension, int num_outputs) {
  LearnerConfig config;
  FeatureMapConfig& features = config.features;
  features.input_dimension = input_dimension;
  features.num_features = options.features;
  features.map = options.map;
  // auto: a stand-in until the warm-up window chooses.
  features.kernel = options.kernel.value_or(KernelKind::kGaussian);
  // leverage: iid candidates until the warm-up window selects among them.
  features.sampler = FeaturesFromWarmUp(options) ? FrequencySampler::kIid : options.sampler;
  // 0 would silently stand for auto: a bandwidth is a positive number.
  if (options.gamma.has_value() && (!(*options.gamma > 0.0) || !std::isfinite(*options.gamma))) {
    return absl::InvalidArgumentError(absl::StrCat("--gamma=", ShortestNumber(*options.gamma),
                                                   ": must be a positive number (or auto, to "
                                                   "choose it)"));
  }
  const double lengthscale = options.lengthscale;
  if (options.given.Has("gamma") && lengthscale != 0.0) {
    return absl::InvalidArgumentError("--gamma and --lengthscale are exclusive: give one");
  }
  if (lengthscale < 0.0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--lengthscale must be positive, got ", lengthscale));
  }
  features.gamma = lengthscale != 0.0          ? GammaFromLengthscale(lengthscale)
                   : options.gamma.has_value() ? *options.gamma
                                               : 1.0 / (2.0 * input_dimension);  // auto: tuned later
  features.seed = options.seed;
  features.lengthscales = options.lengthscales;
  if (!features.lengthscales.empty()) {
    if (static_cast<int>(features.lengthscales.size()) != input_dimension) {
      return absl::InvalidArgumentError(absl::StrCat("--lengthscales has ",
                                                     features.lengthscales.size(),
                                                     " values, but the input has ", input_dimension));
    }
  }
  config.ridge = options.ridge.value_or(kFallbackRidge);  // auto: tuned later
  config.forgetting = options.forget.value_or(1.0);       // auto: 1 until the stream drifts
  config.intercept = options.intercept;
  config.num_outputs = num_outputs;
  config.loss = options.loss;
  if (absl::Status status = config.Validate(); !status.ok()) return status;
  return config;
}

absl::Status CheckOptionsAgreeWithModel(const ModelOptions& options, const InputOptions& input,
                                        const LearnerConfig& model, const Task& task,
                                        const std::string& path) {
  std::vector<std::string> conflicts = InputOptionConflicts(input, task);
  const GivenOptions& given = options.given;
  const auto conflict = [&](bool differs, const char* flag, const std::string& value,
                            const std::string& model_value) {
    if (!differs) return;
    conflicts.push_back(absl::StrCat("--", flag, "=", value, " (the model has ", model_value, ")"));
  };
  const FeatureMapConfig& features = model.features;
  conflict(given.Has("features") && options.features != features.num_features, "features",
           absl::StrCat(options.features), absl::StrCat(features.num_features));
  // An option the model holds differs: the option as given, the model's value.
  const auto text_conflict = [&](const char* name, bool agrees, const std::string& model_value) {
    conflict(given.Has(name) && !agrees, name, ModelOptionText(options, name), model_value);
  };
  text_conflict("map", options.map == features.map, std::string(FeatureMapKindName(features.map)));
  text_conflict("kernel",
                KernelFromWarmUp(options) ? task.kernel_from_warm_up
                                          : options.kernel == features.kernel,
                std::string(KernelKindName(features.kernel)));
  text_conflict("sampler", options.sampler == features.sampler,
                std::string(FrequencySamplerName(features.sampler)));
  text_conflict("gamma",
                GammaFromWarmUp(options) ? task.gamma_from_warm_up
                                         : options.gamma == features.gamma,
                task.gamma_from_warm_up ? absl::StrCat(ShortestNumber(features.gamma), ", chosen by --gamma=auto")
                                        : ShortestNumber(features.gamma));
  text_conflict("lengthscales", options.lengthscales == features.lengthscales,
                features.lengthscales.empty() ? "none" : ModelLengthscales(features.lengthscales));
  conflict(given.Has("lengthscale") &&
               GammaFromLengthscale(options.lengthscale) != features.gamma,
           "lengthscale", ShortestNumber(options.lengthscale),
           absl::StrCat("gamma ", ShortestNumber(features.gamma)));
  text_conflict("ridge",
                RidgeFromWarmUp(options) ? task.ridge_from_warm_up : options.ridge == model.ridge,
                task.ridge_from_warm_up ? absl::StrCat(ShortestNumber(model.ridge), ", chosen by --ridge=auto")
                                        : ShortestNumber(model.ridge));
  text_conflict("forget",
                TracksDrift(options)
                    ? task.drift_from_stream
                    : !task.drift_from_stream && options.forget == model.forgetting,
                task.drift_from_stream ? std::string("auto") : ShortestNumber(model.forgetting));
  conflict(given.Has("intercept") && options.intercept != model.intercept, "intercept",
           options.intercept ? "true" : "false", model.intercept ? "true" : "false");
  text_conflict("loss", options.loss == model.loss, std::string(LossName(model.loss)));
  conflict(given.Has("seed") && options.seed != features.seed, "seed", absl::StrCat(options.seed),
           absl::StrCat(features.seed));
  conflict(given.Has("standardize") && options.standardize != task.standardize_lines,
           "standardize", absl::StrCat(options.standardize),
           task.standardize_lines > 0
               ? absl::StrCat("inputs standardized over ", task.standardize_lines, " lines")
               : std::string("no standardization"));
  if (conflicts.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("flags conflict with the model loaded from ", path,
                                                 ": ", absl::StrJoin(conflicts, ", ")));
}

bool TracksDrift(const ModelOptions& options) { return !options.forget.has_value(); }

bool GammaFromWarmUp(const ModelOptions& options) {
  return !options.gamma.has_value() && !LengthscalesGiven(options);
}

bool RidgeFromWarmUp(const ModelOptions& options) { return !options.ridge.has_value(); }

bool KernelFromWarmUp(const ModelOptions& options) { return !options.kernel.has_value(); }

bool FeaturesFromWarmUp(const ModelOptions& options) {
  return options.sampler == FrequencySampler::kLeverage;
}

bool ChoosesOnWarmUp(const ModelOptions& options) {
  return GammaFromWarmUp(options) || RidgeFromWarmUp(options) || KernelFromWarmUp(options) ||
         FeaturesFromWarmUp(options);
}

int WarmUpWindowLines(const ModelOptions& options, int num_classes) {
  if (options.given.Has("standardize") && options.standardize > 0) return options.standardize;
  if (!ChoosesOnWarmUp(options)) return options.standardize;
  return std::max(kDefaultWarmUpLines, kWarmUpLinesPerClass * num_classes);
}

absl::Status ValidateModelOptions(const ModelOptions& options, const InputOptions& input,
                                  bool loads_model, int block_size) {
  if (options.given.Has("gamma") && !options.gamma.has_value() && !options.lengthscales.empty()) {
    return absl::InvalidArgumentError("--gamma=auto and --lengthscales are exclusive");
  }
  if (KernelFromWarmUp(options) && options.sampler != FrequencySampler::kIid &&
      !FeaturesFromWarmUp(options)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--kernel=auto chooses among kernels that only the iid sampler serves; --sampler=",
        std::string(FrequencySamplerName(options.sampler)), " is for the gaussian kernel"));
  }
  if (input.classes < 0 || input.classes == 1 || input.classes > kMaxClasses) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--classes=", input.classes, ": must be at least 2 and at most ", kMaxClasses,
        " (or 0 for regression)"));
  }
  if (input.classes > 0 && !input.targets.empty()) {
    return absl::InvalidArgumentError("--classes and --targets are exclusive");
  }
  if (options.loss == Loss::kHinge && input.classes == 0 && !loads_model) {
    return absl::InvalidArgumentError(
        "--loss=hinge is a classifier's loss: give --classes=K (K >= 2)");
  }
  // Catch bad model flags before reading any input; the dimension is a
  // stand-in (the number of lengthscales when they are given).
  const int stand_in =
      options.lengthscales.empty() ? 1 : static_cast<int>(options.lengthscales.size());
  absl::StatusOr<LearnerConfig> config = LearnerConfigFromOptions(options, stand_in, OutputsFor(input));
  if (!config.ok()) return config.status();
  // A model too large for this machine is refused before any input is read.
  return CheckModelFitsMemory(*config, options, /*held_rows=*/0, block_size);
}

}  // namespace rffstream
