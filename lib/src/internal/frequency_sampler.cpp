#include "internal/frequency_sampler.h"

#include <cmath>
#include <numbers>

#include "internal/random.h"

namespace rffstream::internal {

// All rows of ω are drawn first, then the phases, so that the pair and the
// phase map of one seed share their leading frequencies.
SampledFrequencies SampleFrequencies(const FeatureMapConfig& config) {
  SampledFrequencies sampled;
  sampled.count =
      config.map == FeatureMapKind::kPair ? config.num_features / 2 : config.num_features;
  RandomEngine engine(config.seed);
  sampled.projection.resize(static_cast<size_t>(sampled.count) * config.input_dimension);
  const double frequency_scale = std::sqrt(2.0 * config.gamma);  // ω ~ N(0, 2γ I)
  for (double& entry : sampled.projection) entry = frequency_scale * engine.NextStandardNormal();
  sampled.offsets.assign(sampled.count, 0.0);
  if (config.map == FeatureMapKind::kPhase) {
    for (double& offset : sampled.offsets) offset = 2.0 * std::numbers::pi * engine.NextUniform();
  }
  return sampled;
}

void FoldInputTransform(const FeatureMapConfig& config, SampledFrequencies& sampled) {
  const int d = config.input_dimension;
  for (int i = 0; i < sampled.count; ++i) {
    double* row = sampled.projection.data() + static_cast<size_t>(i) * d;
    for (int j = 0; j < d; ++j) {
      if (!config.input_scale.empty()) row[j] /= config.input_scale[j];
      if (!config.input_offset.empty()) sampled.offsets[i] -= row[j] * config.input_offset[j];
    }
  }
}

}  // namespace rffstream::internal
