// File: internal/frequency_sampler.h
//
// Draws the frequencies ω_i (and phases b_i) of a feature map from the
// kernel's spectral density, deterministically from the seed, in double.
#ifndef RFFSTREAM_INTERNAL_FREQUENCY_SAMPLER_H_
#define RFFSTREAM_INTERNAL_FREQUENCY_SAMPLER_H_

#include <vector>

#include "rffstream/feature_map_config.h"

namespace rffstream::internal {

struct SampledFrequencies {
  int count = 0;
  std::vector<double> projection;  // count rows of input_dimension, row-major
  std::vector<double> offsets;     // count phases (zeros for the pair map)
};

// REQUIRES: config.Validate().ok(). The input transform of the config is not
// applied here (see FoldInputTransform).
SampledFrequencies SampleFrequencies(const FeatureMapConfig& config);

// ω·((x - μ) / s) + b = (ω / s)·x + (b - (ω / s)·μ): folds the config's input
// transform into the projection and the phases.
void FoldInputTransform(const FeatureMapConfig& config, SampledFrequencies& sampled);

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_FREQUENCY_SAMPLER_H_
