#include "stream/standardization_on_lines.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace rffstream::internal {

std::optional<FeatureMapConfig> StandardizedOnLines(
    const FeatureMapConfig& features, std::span<const double> inputs, int num_inputs,
    const std::function<void(std::span<double>)>* sum) {
  const auto d = static_cast<std::size_t>(num_inputs);
  if (features.input_scale.size() != d || features.input_offset.size() != d) return std::nullopt;
  // Moments about the current offsets: no cancellation for inputs far from 0.
  std::vector<double> moments(2 * d + 1, 0.0);
  for (std::size_t at = 0; at + d <= inputs.size(); at += d) {
    for (std::size_t j = 0; j < d; ++j) {
      const double centred = inputs[at + j] - features.input_offset[j];
      moments[j] += centred;
      moments[d + j] += centred * centred;
    }
    moments[2 * d] += 1;
  }
  if (sum != nullptr) (*sum)(moments);
  const double lines = moments[2 * d];
  if (!(lines > 1)) return std::nullopt;
  FeatureMapConfig standardized = features;
  for (std::size_t j = 0; j < d; ++j) {
    if (features.input_offset[j] == 0.0 && features.input_scale[j] == 1.0) continue;
    const double shift = moments[j] / lines;
    const double deviation = std::sqrt(std::max(moments[d + j] / lines - shift * shift, 0.0));
    if (!(deviation > 1e-12 * std::max(std::abs(features.input_offset[j] + shift), 1e-300)) ||
        !std::isfinite(deviation)) {
      continue;
    }
    standardized.input_offset[j] = features.input_offset[j] + shift;
    standardized.input_scale[j] = deviation;
  }
  return standardized;
}

double LargestScaleChange(const FeatureMapConfig& from, const FeatureMapConfig& to) {
  double largest = 1;
  for (std::size_t j = 0; j < from.input_scale.size() && j < to.input_scale.size(); ++j) {
    const double ratio = to.input_scale[j] / from.input_scale[j];
    largest = std::max({largest, ratio, 1 / ratio});
  }
  return largest;
}

}  // namespace rffstream::internal
