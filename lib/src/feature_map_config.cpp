#include "rffstream/feature_map_config.h"

#include <cmath>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace rffstream {
namespace {

absl::Status ValidateTransform(const std::vector<double>& values, std::string_view name,
                               int input_dimension, bool must_be_positive) {
  if (values.empty()) return absl::OkStatus();
  if (static_cast<int>(values.size()) != input_dimension) {
    return absl::InvalidArgumentError(absl::StrCat("feature map: ", std::string(name), " has ", values.size(),
                                                   " entries, expected input_dimension = ",
                                                   input_dimension));
  }
  for (size_t j = 0; j < values.size(); ++j) {
    if (!std::isfinite(values[j]) || (must_be_positive && values[j] <= 0.0)) {
      return absl::InvalidArgumentError(absl::StrCat("feature map: ", std::string(name), "[", j, "] = ",
                                                     values[j], " is not ",
                                                     must_be_positive ? "a positive finite number"
                                                                      : "finite"));
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateSelection(const FeatureMapConfig& config) {
  const FrequencySelection& selection = config.selection;
  const bool empty = selection.candidates == 0 && selection.selected.empty() && selection.weights.empty();
  if (config.sampler != FrequencySampler::kLeverage) {
    if (empty) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrCat(
        "feature map: a frequency selection is for the leverage sampler only, not ",
        std::string(FrequencySamplerName(config.sampler))));
  }
  const auto frequencies = static_cast<std::size_t>(config.num_frequencies());
  if (empty) {
    return absl::InvalidArgumentError(
        "feature map: the leverage sampler needs a selection made from data "
        "(SelectFeaturesByLeverage)");
  }
  if (selection.candidates < 1 || selection.selected.size() != frequencies ||
      selection.weights.size() != frequencies) {
    return absl::InvalidArgumentError(absl::StrCat(
        "feature map: the leverage selection needs ", frequencies, " indices and weights over at "
        "least one candidate, got ", selection.selected.size(), " and ", selection.weights.size(),
        " over ", selection.candidates));
  }
  for (std::size_t s = 0; s < frequencies; ++s) {
    if (selection.selected[s] < 0 || selection.selected[s] >= selection.candidates ||
        !(selection.weights[s] > 0) || !std::isfinite(selection.weights[s])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "feature map: leverage selection entry ", s, " (candidate ", selection.selected[s],
          " of ", selection.candidates, ", weight ", selection.weights[s], ") is not valid"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status FeatureMapConfig::Validate() const {
  if (input_dimension <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("feature map: input_dimension must be positive, got ", input_dimension));
  }
  if (num_features <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("feature map: num_features must be positive, got ", num_features));
  }
  if (map == FeatureMapKind::kPair && num_features % 2 != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "feature map: the pair map needs an even num_features (cos and sin per frequency), got ",
        num_features));
  }
  if (!std::isfinite(gamma) || gamma <= 0.0) {
    return absl::InvalidArgumentError(
        absl::StrCat("feature map: gamma must be a positive finite number, got ", gamma));
  }
  if (absl::Status status = ValidateSelection(*this); !status.ok()) return status;
  if (sampler != FrequencySampler::kIid && sampler != FrequencySampler::kLeverage &&
      kernel != KernelKind::kGaussian) {
    return absl::InvalidArgumentError(absl::StrCat(
        "feature map: the ", std::string(FrequencySamplerName(sampler)),
        " sampler is for the gaussian kernel only"));
  }
  if (absl::Status status = ValidateTransform(lengthscales, "lengthscales", input_dimension, true);
      !status.ok()) {
    return status;
  }
  if (absl::Status status = ValidateTransform(input_offset, "input_offset", input_dimension, false);
      !status.ok()) {
    return status;
  }
  return ValidateTransform(input_scale, "input_scale", input_dimension, true);
}

double GammaFromLengthscale(double lengthscale) { return 1.0 / (2.0 * lengthscale * lengthscale); }

std::string_view FeatureMapKindName(FeatureMapKind kind) {
  switch (kind) {
    case FeatureMapKind::kPair:
      return "pair";
    case FeatureMapKind::kPhase:
      return "phase";
  }
  return "unknown";
}

absl::StatusOr<FeatureMapKind> ParseFeatureMapKind(std::string_view name) {
  if (name == "pair") return FeatureMapKind::kPair;
  if (name == "phase") return FeatureMapKind::kPhase;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown feature map '", std::string(name), "' (expected pair or phase)"));
}

namespace {
constexpr std::pair<KernelKind, std::string_view> kKernelNames[] = {
    {KernelKind::kGaussian, "gaussian"}, {KernelKind::kLaplacian, "laplacian"},
    {KernelKind::kCauchy, "cauchy"},     {KernelKind::kMatern12, "matern12"},
    {KernelKind::kMatern32, "matern32"}, {KernelKind::kMatern52, "matern52"},
};
}  // namespace

std::string_view FrequencySamplerName(FrequencySampler sampler) {
  switch (sampler) {
    case FrequencySampler::kIid:
      return "iid";
    case FrequencySampler::kOrthogonal:
      return "orthogonal";
    case FrequencySampler::kQuasiMonteCarlo:
      return "qmc";
    case FrequencySampler::kLeverage:
      return "leverage";
  }
  return "unknown";
}

absl::StatusOr<FrequencySampler> ParseFrequencySampler(std::string_view name) {
  for (FrequencySampler sampler : {FrequencySampler::kIid, FrequencySampler::kOrthogonal,
                                   FrequencySampler::kQuasiMonteCarlo, FrequencySampler::kLeverage}) {
    if (FrequencySamplerName(sampler) == name) return sampler;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown sampler '", std::string(name), "' (expected iid, orthogonal or qmc)"));
}

std::string_view KernelKindName(KernelKind kind) {
  for (const auto& [known, name] : kKernelNames) {
    if (known == kind) return name;
  }
  return "unknown";
}

absl::StatusOr<KernelKind> ParseKernelKind(std::string_view name) {
  for (const auto& [kind, known] : kKernelNames) {
    if (known == name) return kind;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown kernel '", std::string(name),
      "' (expected gaussian, laplacian, cauchy, matern12, matern32 or matern52)"));
}

}  // namespace rffstream
