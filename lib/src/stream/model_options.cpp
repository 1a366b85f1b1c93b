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
#include "rffstream/feature_map_config.h"

namespace rffstream {

int OutputsFor(const InputOptions& input) {
  if (input.classes > 0) return input.classes;
  const std::string& targets = input.targets;
  if (targets.empty()) return 1;
  return static_cast<int>(std::count(targets.begin(), targets.end(), ',')) + 1;
}

namespace {

// --gamma as a number (0 when it is empty or auto).
absl::StatusOr<double> NumericGamma(const ModelOptions& options) {
  const std::string& text = options.gamma;
  double gamma = 0.0;
  if (text.empty() || text == "auto") return gamma;
  if (!absl::SimpleAtod(text, &gamma)) {
    return absl::InvalidArgumentError(absl::StrCat("--gamma=", text, ": expected a number or auto"));
  }
  // 0 would silently stand for auto: a bandwidth is a positive number.
  if (!(gamma > 0.0) || !std::isfinite(gamma)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--gamma=", text, ": must be a positive number (or auto, to choose it)"));
  }
  return gamma;
}

// --ridge as a number (nullopt for auto); any number goes on to Validate().
absl::StatusOr<std::optional<double>> NumericRidge(const ModelOptions& options) {
  const std::string& text = options.ridge;
  if (text == "auto") return std::optional<double>();
  double ridge = 0.0;
  if (!absl::SimpleAtod(text, &ridge)) {
    return absl::InvalidArgumentError(absl::StrCat("--ridge=", text, ": expected a number or auto"));
  }
  return std::optional<double>(ridge);
}

// The bandwidth comes from lengthscales when they are given.
bool LengthscalesGiven(const ModelOptions& options) {
  return options.lengthscale != 0.0 || !options.lengthscales.empty();
}

absl::StatusOr<std::vector<double>> Lengthscales(const ModelOptions& options) {
  std::vector<double> lengthscales;
  const std::string& text = options.lengthscales;
  if (text.empty()) return lengthscales;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    double value = 0;
    if (!absl::SimpleAtod(part, &value)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--lengthscales=", text, ": '", std::string(part), "' is not a number"));
    }
    lengthscales.push_back(value);
  }
  return lengthscales;
}

}  // namespace

int BytesPerNumber(const ModelOptions& options) { return options.precision == "float32" ? 4 : 8; }

absl::StatusOr<LearnerConfig> LearnerConfigFromOptions(const ModelOptions& options,
                                                      int input_dimension, int num_outputs) {
  LearnerConfig config;
  FeatureMapConfig& features = config.features;
  features.input_dimension = input_dimension;
  features.num_features = options.features;
  absl::StatusOr<FeatureMapKind> map = ParseFeatureMapKind(options.map);
  if (!map.ok()) return map.status();
  features.map = *map;
  // auto: a stand-in until the warm-up window chooses.
  absl::StatusOr<KernelKind> kernel =
      KernelFromWarmUp(options) ? KernelKind::kGaussian : ParseKernelKind(options.kernel);
  if (!kernel.ok()) return kernel.status();
  features.kernel = *kernel;
  absl::StatusOr<FrequencySampler> sampler = ParseFrequencySampler(options.sampler);
  if (!sampler.ok()) return sampler.status();
  // leverage: iid candidates until the warm-up window selects among them.
  features.sampler = FeaturesFromWarmUp(options) ? FrequencySampler::kIid : *sampler;
  const std::string& gamma_text = options.gamma;
  absl::StatusOr<double> gamma = NumericGamma(options);
  if (!gamma.ok()) return gamma.status();
  const double lengthscale = options.lengthscale;
  if (options.given.Has("gamma") && !gamma_text.empty() && lengthscale != 0.0) {
    return absl::InvalidArgumentError("--gamma and --lengthscale are exclusive: give one");
  }
  if (lengthscale < 0.0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--lengthscale must be positive, got ", lengthscale));
  }
  features.gamma = lengthscale != 0.0 ? GammaFromLengthscale(lengthscale)
                   : *gamma != 0.0    ? *gamma
                                      : 1.0 / (2.0 * input_dimension);  // auto: tuned later
  features.seed = options.seed;
  absl::StatusOr<std::vector<double>> lengthscales = Lengthscales(options);
  if (!lengthscales.ok()) return lengthscales.status();
  features.lengthscales = *std::move(lengthscales);
  if (!features.lengthscales.empty()) {
    if (static_cast<int>(features.lengthscales.size()) != input_dimension) {
      return absl::InvalidArgumentError(absl::StrCat("--lengthscales has ",
                                                     features.lengthscales.size(),
                                                     " values, but the input has ", input_dimension));
    }
  }
  absl::StatusOr<std::optional<double>> ridge = NumericRidge(options);
  if (!ridge.ok()) return ridge.status();
  config.ridge = ridge->value_or(kFallbackRidge);  // auto: tuned later
  absl::StatusOr<double> forget = NumericForget(options);
  if (!forget.ok()) return forget.status();
  config.forgetting = *forget;
  config.intercept = options.intercept;
  config.num_outputs = num_outputs;
  absl::StatusOr<Loss> loss = ParseLoss(options.loss);
  if (!loss.ok()) return loss.status();
  config.loss = *loss;
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
  conflict(given.Has("map") && options.map != FeatureMapKindName(features.map), "map", options.map,
           std::string(FeatureMapKindName(features.map)));
  conflict(given.Has("kernel") &&
               !(KernelFromWarmUp(options) ? task.kernel_from_warm_up
                                           : options.kernel == KernelKindName(features.kernel)),
           "kernel", options.kernel, std::string(KernelKindName(features.kernel)));
  conflict(given.Has("sampler") && options.sampler != FrequencySamplerName(features.sampler),
           "sampler", options.sampler, std::string(FrequencySamplerName(features.sampler)));
  const absl::StatusOr<double> gamma = NumericGamma(options);
  const bool gamma_agrees = GammaFromWarmUp(options) ? task.gamma_from_warm_up
                                                     : gamma.ok() && *gamma == features.gamma;
  conflict(given.Has("gamma") && !gamma_agrees, "gamma", options.gamma,
           task.gamma_from_warm_up ? absl::StrCat(features.gamma, ", chosen by --gamma=auto")
                                   : absl::StrCat(features.gamma));
  const absl::StatusOr<std::vector<double>> lengthscales = Lengthscales(options);
  conflict(given.Has("lengthscales") &&
               !(lengthscales.ok() && *lengthscales == features.lengthscales),
           "lengthscales", options.lengthscales,
           features.lengthscales.empty() ? "none" : absl::StrJoin(features.lengthscales, ","));
  conflict(given.Has("lengthscale") &&
               GammaFromLengthscale(options.lengthscale) != features.gamma,
           "lengthscale", absl::StrCat(options.lengthscale), absl::StrCat("gamma ", features.gamma));
  const absl::StatusOr<std::optional<double>> ridge = NumericRidge(options);
  const bool ridge_agrees = RidgeFromWarmUp(options) ? task.ridge_from_warm_up
                                                     : ridge.ok() && *ridge == model.ridge;
  conflict(given.Has("ridge") && !ridge_agrees, "ridge", options.ridge,
           task.ridge_from_warm_up ? absl::StrCat(model.ridge, ", chosen by --ridge=auto")
                                   : absl::StrCat(model.ridge));
  const absl::StatusOr<double> forget = NumericForget(options);
  const bool forget_agrees = TracksDrift(options)
                                 ? task.drift_from_stream
                                 : !task.drift_from_stream && forget.ok() &&
                                       *forget == model.forgetting;
  conflict(given.Has("forget") && !forget_agrees, "forget", options.forget,
           task.drift_from_stream ? std::string("auto") : absl::StrCat(model.forgetting));
  conflict(given.Has("intercept") && options.intercept != model.intercept, "intercept",
           options.intercept ? "true" : "false", model.intercept ? "true" : "false");
  conflict(given.Has("loss") && options.loss != LossName(model.loss), "loss", options.loss,
           std::string(LossName(model.loss)));
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

absl::StatusOr<double> NumericForget(const ModelOptions& options) {
  const std::string& text = options.forget;
  if (text == "auto") return 1.0;
  double forget = 0.0;
  if (!absl::SimpleAtod(text, &forget)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--forget=", text, ": expected a number in (0, 1] or auto"));
  }
  return forget;  // its range: LearnerConfig::Validate
}

bool TracksDrift(const ModelOptions& options) { return options.forget == "auto"; }

bool GammaFromWarmUp(const ModelOptions& options) {
  return options.gamma == "auto" && !LengthscalesGiven(options);
}

bool RidgeFromWarmUp(const ModelOptions& options) { return options.ridge == "auto"; }

bool KernelFromWarmUp(const ModelOptions& options) { return options.kernel == "auto"; }

bool FeaturesFromWarmUp(const ModelOptions& options) {
  return options.sampler == FrequencySamplerName(FrequencySampler::kLeverage);
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
                                  bool loads_model) {
  if (options.given.Has("gamma") && options.gamma == "auto" && !options.lengthscales.empty()) {
    return absl::InvalidArgumentError("--gamma=auto and --lengthscales are exclusive");
  }
  if (KernelFromWarmUp(options) && options.sampler != "iid" && !FeaturesFromWarmUp(options)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--kernel=auto chooses among kernels that only the iid sampler serves; --sampler=",
        options.sampler, " is for the gaussian kernel"));
  }
  const std::string& precision = options.precision;
  if (precision != "float32" && precision != "float64") {
    return absl::InvalidArgumentError(
        absl::StrCat("--precision=", precision, ": expected float32 or float64"));
  }
  if (input.classes < 0 || input.classes == 1 || input.classes > kMaxClasses) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--classes=", input.classes, ": must be at least 2 and at most ", kMaxClasses,
        " (or 0 for regression)"));
  }
  if (input.classes > 0 && !input.targets.empty()) {
    return absl::InvalidArgumentError("--classes and --targets are exclusive");
  }
  if (options.loss == LossName(Loss::kHinge) && input.classes == 0 && !loads_model) {
    return absl::InvalidArgumentError(
        "--loss=hinge is a classifier's loss: give --classes=K (K >= 2)");
  }
  // Catch bad model flags before reading any input; the dimension is a
  // stand-in (the number of lengthscales when they are given).
  const std::string& lengthscales = options.lengthscales;
  const int stand_in = lengthscales.empty()
                           ? 1
                           : static_cast<int>(std::count(lengthscales.begin(), lengthscales.end(), ',')) + 1;
  absl::StatusOr<LearnerConfig> config = LearnerConfigFromOptions(options, stand_in, OutputsFor(input));
  if (!config.ok()) return config.status();
  // A model too large for this machine is refused before any input is read.
  return CheckModelFitsMemory(*config, options);
}

}  // namespace rffstream
