#include "model_flags.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "input_format.h"
#include "absl/strings/str_split.h"

ABSL_FLAG(int, features, 256, "number of random Fourier features D (the RLS costs O(D^2))");
ABSL_FLAG(std::string, map, "phase",
          "feature map: phase = sqrt(2/D) cos(w.x + b), pair = sqrt(2/D) [cos(w.x), sin(w.x)]");
ABSL_FLAG(std::string, kernel, "gaussian",
          "kernel: gaussian exp(-gamma |x-y|^2), laplacian exp(-gamma |x-y|_1), cauchy "
          "prod 1/(1 + gamma (x_j-y_j)^2), matern12, matern32 or matern52 (Matern nu = 1/2, 3/2, "
          "5/2 with lengthscale 1/sqrt(2 gamma)); auto = the one with the least leave-one-out "
          "error on the warm-up window, with its gamma and ridge");
ABSL_FLAG(std::string, sampler, "iid",
          "frequencies: iid, orthogonal (orthogonal random features) or qmc (randomized "
          "quasi-Monte Carlo); the last two for the gaussian kernel, lower variance");
ABSL_FLAG(std::string, lengthscales, "",
          "ARD: one lengthscale per input, comma-separated (each input difference is divided by "
          "its lengthscale; --gamma and --lengthscale are then not used)");
ABSL_FLAG(std::string, gamma, "auto",
          "kernel bandwidth gamma: a number, or auto = chosen on the warm-up window by exact "
          "leave-one-out error over a grid around the median heuristic (with --ridge=auto, "
          "jointly). Exclusive with --lengthscale and --lengthscales");
ABSL_FLAG(double, lengthscale, 0.0,
          "kernel lengthscale l, gamma = 1/(2 l^2); 0 = unset. Exclusive with --gamma");
ABSL_FLAG(std::string, ridge, "auto",
          "ridge regularization strength lambda: a number, or auto = chosen on the warm-up "
          "window by exact leave-one-out error");
ABSL_FLAG(double, forget, 1.0,
          "forgetting factor beta in (0, 1]: a sample t steps old weighs beta^t");
ABSL_FLAG(bool, intercept, true, "fit a constant offset as an extra feature");
ABSL_FLAG(uint64_t, seed, 1, "seed of the random frequencies (the same on every platform)");
ABSL_FLAG(std::string, precision, "float64",
          "float64 or float32: the precision of the model's arithmetic and storage (float32 "
          "halves the memory traffic of the O(D^2) update)");
ABSL_FLAG(std::string, targets, "",
          "several target columns learned together (names from the header or 0-based indices, "
          "comma-separated); they share the features and P. Output lines hold one prediction "
          "per target");
ABSL_FLAG(int, classes, 0,
          "K > 0: the target column holds a class 0..K-1, learned one-vs-rest as K outputs with "
          "targets +1/-1; the output is the predicted class (argmax), the metrics accuracy and "
          "confusion counts");
ABSL_FLAG(int64_t, max_model_memory_mb, 0,
          "refuse a model larger than this many MiB (its estimate is printed); 0 = half of the "
          "physical memory");
ABSL_FLAG(int, standardize, rffstream::app::kDefaultWarmUpLines,
          "standardize inputs with the mean and standard deviation of the first N lines "
          "(their predictions are written once the window is full; a shorter input uses what it "
          "has); 0 = off");

namespace rffstream::app {

int OutputsFromFlags() {
  if (absl::GetFlag(FLAGS_classes) > 0) return absl::GetFlag(FLAGS_classes);
  const std::string targets = absl::GetFlag(FLAGS_targets);
  if (targets.empty()) return 1;
  return static_cast<int>(std::count(targets.begin(), targets.end(), ',')) + 1;
}

namespace {

// --gamma as a number (0 when it is empty or auto).
absl::StatusOr<double> NumericGammaFromFlag() {
  const std::string text = absl::GetFlag(FLAGS_gamma);
  double gamma = 0.0;
  if (text.empty() || text == "auto") return gamma;
  if (!absl::SimpleAtod(text, &gamma)) {
    return absl::InvalidArgumentError(absl::StrCat("--gamma=", text, ": expected a number or auto"));
  }
  return gamma;
}

// --ridge as a number (nullopt for auto); any number goes on to Validate().
absl::StatusOr<std::optional<double>> NumericRidgeFromFlag() {
  const std::string text = absl::GetFlag(FLAGS_ridge);
  if (text == "auto") return std::optional<double>();
  double ridge = 0.0;
  if (!absl::SimpleAtod(text, &ridge)) {
    return absl::InvalidArgumentError(absl::StrCat("--ridge=", text, ": expected a number or auto"));
  }
  return std::optional<double>(ridge);
}

// The bandwidth comes from lengthscales when they are given.
bool LengthscalesGiven() {
  return absl::GetFlag(FLAGS_lengthscale) != 0.0 || !absl::GetFlag(FLAGS_lengthscales).empty();
}

absl::StatusOr<std::vector<double>> LengthscalesFromFlag() {
  std::vector<double> lengthscales;
  const std::string text = absl::GetFlag(FLAGS_lengthscales);
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

double MemoryLimitBytes() {
  const std::int64_t flag = absl::GetFlag(FLAGS_max_model_memory_mb);
  if (flag > 0) return static_cast<double>(flag) * (1 << 20);
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 8.0 * (1 << 30);
  return 0.5 * static_cast<double>(pages) * static_cast<double>(page_size);
}

}  // namespace

absl::Status CheckModelFitsMemory(const LearnerConfig& config, int bytes_per_number) {
  const double estimate = config.MemoryBytes(bytes_per_number);
  const double limit = MemoryLimitBytes();
  if (estimate <= limit) return absl::OkStatus();
  constexpr double kMiB = 1 << 20;
  return absl::ResourceExhaustedError(absl::StrFormat(
      "the model would take about %.0f MiB (%d features, %d inputs, %d outputs, float%d: P alone "
      "is about D^2 numbers), more than the limit of %.0f MiB (--max_model_memory_mb; by "
      "default half the physical memory)",
      estimate / kMiB, config.features.num_features, config.features.input_dimension,
      config.num_outputs, 8 * bytes_per_number, limit / kMiB));
}

absl::StatusOr<LearnerConfig> LearnerConfigFromFlags(int input_dimension, int num_outputs) {
  LearnerConfig config;
  FeatureMapConfig& features = config.features;
  features.input_dimension = input_dimension;
  features.num_features = absl::GetFlag(FLAGS_features);
  absl::StatusOr<FeatureMapKind> map = ParseFeatureMapKind(absl::GetFlag(FLAGS_map));
  if (!map.ok()) return map.status();
  features.map = *map;
  // auto: a stand-in until the warm-up window chooses.
  absl::StatusOr<KernelKind> kernel =
      KernelFromWarmUp() ? KernelKind::kGaussian : ParseKernelKind(absl::GetFlag(FLAGS_kernel));
  if (!kernel.ok()) return kernel.status();
  features.kernel = *kernel;
  absl::StatusOr<FrequencySampler> sampler = ParseFrequencySampler(absl::GetFlag(FLAGS_sampler));
  if (!sampler.ok()) return sampler.status();
  features.sampler = *sampler;
  const std::string gamma_text = absl::GetFlag(FLAGS_gamma);
  absl::StatusOr<double> gamma = NumericGammaFromFlag();
  if (!gamma.ok()) return gamma.status();
  const double lengthscale = absl::GetFlag(FLAGS_lengthscale);
  if (IsSetByUser(FLAGS_gamma) && !gamma_text.empty() && lengthscale != 0.0) {
    return absl::InvalidArgumentError("--gamma and --lengthscale are exclusive: give one");
  }
  if (lengthscale < 0.0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--lengthscale must be positive, got ", lengthscale));
  }
  features.gamma = lengthscale != 0.0 ? GammaFromLengthscale(lengthscale)
                   : *gamma != 0.0    ? *gamma
                                      : 1.0 / (2.0 * input_dimension);  // auto: tuned later
  features.seed = absl::GetFlag(FLAGS_seed);
  absl::StatusOr<std::vector<double>> lengthscales = LengthscalesFromFlag();
  if (!lengthscales.ok()) return lengthscales.status();
  features.lengthscales = *std::move(lengthscales);
  if (!features.lengthscales.empty()) {
    if (static_cast<int>(features.lengthscales.size()) != input_dimension) {
      return absl::InvalidArgumentError(absl::StrCat("--lengthscales has ",
                                                     features.lengthscales.size(),
                                                     " values, but the input has ", input_dimension));
    }
  }
  absl::StatusOr<std::optional<double>> ridge = NumericRidgeFromFlag();
  if (!ridge.ok()) return ridge.status();
  config.ridge = ridge->value_or(kFallbackRidge);  // auto: tuned later
  config.forgetting = absl::GetFlag(FLAGS_forget);
  config.intercept = absl::GetFlag(FLAGS_intercept);
  config.num_outputs = num_outputs;
  if (absl::Status status = config.Validate(); !status.ok()) return status;
  return config;
}

absl::Status CheckFlagsAgreeWithModel(const LearnerConfig& model, const Task& task,
                                      const std::string& path) {
  std::vector<std::string> conflicts = InputFlagConflicts(task);
  const auto conflict = [&](bool differs, const absl::CommandLineFlag& flag,
                            const std::string& model_value) {
    if (!differs) return;
    conflicts.push_back(absl::StrCat("--", std::string(flag.Name()), "=", flag.CurrentValue(),
                                     " (the model has ", model_value, ")"));
  };
  const FeatureMapConfig& features = model.features;
  conflict(IsSetByUser(FLAGS_features) && absl::GetFlag(FLAGS_features) != features.num_features,
           absl::GetFlagReflectionHandle(FLAGS_features), absl::StrCat(features.num_features));
  conflict(IsSetByUser(FLAGS_map) && absl::GetFlag(FLAGS_map) != FeatureMapKindName(features.map),
           absl::GetFlagReflectionHandle(FLAGS_map), std::string(FeatureMapKindName(features.map)));
  conflict(IsSetByUser(FLAGS_kernel) &&
               !(KernelFromWarmUp() ? task.kernel_from_warm_up
                                    : absl::GetFlag(FLAGS_kernel) == KernelKindName(features.kernel)),
           absl::GetFlagReflectionHandle(FLAGS_kernel),
           std::string(KernelKindName(features.kernel)));
  conflict(IsSetByUser(FLAGS_sampler) &&
               absl::GetFlag(FLAGS_sampler) != FrequencySamplerName(features.sampler),
           absl::GetFlagReflectionHandle(FLAGS_sampler),
           std::string(FrequencySamplerName(features.sampler)));
  const absl::StatusOr<double> gamma = NumericGammaFromFlag();
  const bool gamma_agrees = GammaFromWarmUp() ? task.gamma_from_warm_up
                                              : gamma.ok() && *gamma == features.gamma;
  conflict(IsSetByUser(FLAGS_gamma) && !gamma_agrees, absl::GetFlagReflectionHandle(FLAGS_gamma),
           task.gamma_from_warm_up ? absl::StrCat(features.gamma, ", chosen by --gamma=auto")
                                   : absl::StrCat(features.gamma));
  const absl::StatusOr<std::vector<double>> lengthscales = LengthscalesFromFlag();
  conflict(IsSetByUser(FLAGS_lengthscales) &&
               !(lengthscales.ok() && *lengthscales == features.lengthscales),
           absl::GetFlagReflectionHandle(FLAGS_lengthscales),
           features.lengthscales.empty() ? "none" : absl::StrJoin(features.lengthscales, ","));
  conflict(IsSetByUser(FLAGS_lengthscale) &&
               GammaFromLengthscale(absl::GetFlag(FLAGS_lengthscale)) != features.gamma,
           absl::GetFlagReflectionHandle(FLAGS_lengthscale), absl::StrCat("gamma ", features.gamma));
  const absl::StatusOr<std::optional<double>> ridge = NumericRidgeFromFlag();
  const bool ridge_agrees = RidgeFromWarmUp() ? task.ridge_from_warm_up
                                              : ridge.ok() && *ridge == model.ridge;
  conflict(IsSetByUser(FLAGS_ridge) && !ridge_agrees, absl::GetFlagReflectionHandle(FLAGS_ridge),
           task.ridge_from_warm_up ? absl::StrCat(model.ridge, ", chosen by --ridge=auto")
                                   : absl::StrCat(model.ridge));
  conflict(IsSetByUser(FLAGS_forget) && absl::GetFlag(FLAGS_forget) != model.forgetting,
           absl::GetFlagReflectionHandle(FLAGS_forget), absl::StrCat(model.forgetting));
  conflict(IsSetByUser(FLAGS_intercept) && absl::GetFlag(FLAGS_intercept) != model.intercept,
           absl::GetFlagReflectionHandle(FLAGS_intercept), model.intercept ? "true" : "false");
  conflict(IsSetByUser(FLAGS_seed) && absl::GetFlag(FLAGS_seed) != features.seed,
           absl::GetFlagReflectionHandle(FLAGS_seed), absl::StrCat(features.seed));
  conflict(IsSetByUser(FLAGS_standardize) &&
               absl::GetFlag(FLAGS_standardize) != task.standardize_lines,
           absl::GetFlagReflectionHandle(FLAGS_standardize),
           task.standardize_lines > 0
               ? absl::StrCat("inputs standardized over ", task.standardize_lines, " lines")
               : std::string("no standardization"));
  if (conflicts.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("flags conflict with the model loaded from ", path,
                                                 ": ", absl::StrJoin(conflicts, ", ")));
}

bool GammaFromWarmUp() { return absl::GetFlag(FLAGS_gamma) == "auto" && !LengthscalesGiven(); }

bool RidgeFromWarmUp() { return absl::GetFlag(FLAGS_ridge) == "auto"; }

bool KernelFromWarmUp() { return absl::GetFlag(FLAGS_kernel) == "auto"; }

absl::Status ValidateModelFlags() {
  if (IsSetByUser(FLAGS_gamma) && absl::GetFlag(FLAGS_gamma) == "auto" &&
      !absl::GetFlag(FLAGS_lengthscales).empty()) {
    return absl::InvalidArgumentError("--gamma=auto and --lengthscales are exclusive");
  }
  if (KernelFromWarmUp() && absl::GetFlag(FLAGS_sampler) != "iid") {
    return absl::InvalidArgumentError(absl::StrCat(
        "--kernel=auto chooses among kernels that only the iid sampler serves; --sampler=",
        absl::GetFlag(FLAGS_sampler), " is for the gaussian kernel"));
  }
  const std::string precision = absl::GetFlag(FLAGS_precision);
  if (precision != "float32" && precision != "float64") {
    return absl::InvalidArgumentError(
        absl::StrCat("--precision=", precision, ": expected float32 or float64"));
  }
  if (absl::GetFlag(FLAGS_classes) < 0 || absl::GetFlag(FLAGS_classes) == 1) {
    return absl::InvalidArgumentError("--classes must be at least 2 (or 0 for regression)");
  }
  if (absl::GetFlag(FLAGS_classes) > 0 && !absl::GetFlag(FLAGS_targets).empty()) {
    return absl::InvalidArgumentError("--classes and --targets are exclusive");
  }
  // Catch bad model flags before reading any input; the dimension is a
  // stand-in (the number of lengthscales when they are given).
  const std::string lengthscales = absl::GetFlag(FLAGS_lengthscales);
  const int stand_in = lengthscales.empty()
                           ? 1
                           : static_cast<int>(std::count(lengthscales.begin(), lengthscales.end(), ',')) + 1;
  absl::StatusOr<LearnerConfig> config = LearnerConfigFromFlags(stand_in, OutputsFromFlags());
  if (!config.ok()) return config.status();
  // A model too large for this machine is refused before any input is read.
  const int bytes_per_number = precision == "float32" ? 4 : 8;
  return CheckModelFitsMemory(*config, bytes_per_number);
}

}  // namespace rffstream::app
