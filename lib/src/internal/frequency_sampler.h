// File: internal/frequency_sampler.h
//
// Draws the frequencies ω_i (and phases b_i) of a feature map from the
// kernel's spectral density, deterministically from the seed, in double.
#ifndef RFFSTREAM_INTERNAL_FREQUENCY_SAMPLER_H_
#define RFFSTREAM_INTERNAL_FREQUENCY_SAMPLER_H_

#include <span>
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

// The value the map subtracts from input j before the projection, in double
// (input_dimension values): its mean μ_j when |μ_j| exceeds its deviation
// s_j, 0 otherwise. Folding μ into the phases instead, as below, costs a
// sample nothing but rounds ω·x to |μ_j| / s_j times the precision: a clock
// or a price far from zero would lose its digits (in float32, x itself
// does, before any arithmetic). Inputs near zero stay folded, so that
// their zeros still cost nothing (FeatureMap::Map).
std::vector<double> InputCentres(const FeatureMapConfig& config);

// ω·((x - c - m) / s) + b = (ω / s)·(x - c) + (b - (ω / s)·m), with c the
// centre above and m = μ - c: folds the config's input transform, but for
// the centre, into the projection and the phases.
void FoldInputTransform(const FeatureMapConfig& config, std::span<const double> centres,
                        SampledFrequencies& sampled);

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_FREQUENCY_SAMPLER_H_
