// File: rffstream/leverage_features.h
//
// Data-dependent random features by ridge leverage scores (Avron et al. 2017,
// "Random Fourier Features for Kernel Ridge Regression: Approximation Bounds
// and Statistical Guarantees"; Li et al. 2019, "Towards a Unified Analysis of
// Random Fourier Features"). M = candidates_per_frequency × the map's
// frequencies are drawn iid from the kernel's spectral density; on the
// warm-up rows X, candidate j's ridge leverage score is
//
//   τ_j = Σ_f φ_f(X)ᵀ (K̃ + λ I)⁻¹ φ_f(X),   K̃ = Φ(X) Φ(X)ᵀ over all candidates,
//
// summed over the features f of frequency j; the map keeps D frequencies
// (D/2 for the pair map) drawn with replacement with probability
// q_j = 0.9 τ_j / Σ τ + 0.1 / M (the uniform part bounds every weight), and
// weights feature s by 1 / √(M q_j), so that z(x)·z(y) stays an unbiased
// estimate of the kernel of the candidates. Reproducible from the seed.
//
//   absl::StatusOr<rffstream::FeatureMapConfig> chosen =
//       rffstream::SelectFeaturesByLeverage(config.features, config.ridge, warm_up_rows);
//   if (chosen.ok()) config.features = *chosen;   // sampler == kLeverage
#ifndef RFFSTREAM_LEVERAGE_FEATURES_H_
#define RFFSTREAM_LEVERAGE_FEATURES_H_

#include <span>

#include "absl/status/statusor.h"
#include "rffstream/feature_map_config.h"

namespace rffstream {

// `config`: the map to make (its sampler is replaced by kLeverage; its input
// transform applies to `inputs` as the map will apply it); `ridge`: λ, the
// learner's; `inputs`: rows of config.input_dimension raw values, of which
// at most the first 512 are used. Errors: fewer than 2 rows, non-finite
// numbers, an invalid config or ridge.
[[nodiscard]] absl::StatusOr<FeatureMapConfig> SelectFeaturesByLeverage(
    FeatureMapConfig config, double ridge, std::span<const double> inputs,
    int candidates_per_frequency = 8);

}  // namespace rffstream

#endif  // RFFSTREAM_LEVERAGE_FEATURES_H_
