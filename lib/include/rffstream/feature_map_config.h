// File: rffstream/feature_map_config.h
//
// The plain configuration of a random Fourier feature map. Validate() checks it
// and names the first problem; every other part of the library assumes a
// validated configuration.
//
//   rffstream::FeatureMapConfig config;
//   config.input_dimension = 16;
//   config.num_features = 1024;
//   config.gamma = rffstream::GammaFromLengthscale(2.0);
//   if (absl::Status status = config.Validate(); !status.ok()) { ... }
#ifndef RFFSTREAM_FEATURE_MAP_CONFIG_H_
#define RFFSTREAM_FEATURE_MAP_CONFIG_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace rffstream {

// How the frequencies ω_i become features (see the README for the formulas).
enum class FeatureMapKind {
  // z = sqrt(1/m) [cos(ω_i·x), sin(ω_i·x)], m = D/2 frequencies.
  kPair,
  // z = sqrt(2/D) cos(ω_i·x + b_i), D frequencies, b_i ~ U[0, 2π).
  kPhase,
};

// The shift-invariant kernel whose spectral density the frequencies are drawn
// from (Δ = x - y; with `lengthscales`, Δ_j is divided by ℓ_j first and the
// bandwidth below is 1 for laplacian and cauchy, γ = 1/2 for gaussian, ℓ = 1
// for the Matérn kernels).
enum class KernelKind {
  kGaussian,   // exp(-γ ‖Δ‖²);                ω ~ N(0, 2γ I)
  kLaplacian,  // exp(-γ ‖Δ‖₁);                each ω_j ~ Cauchy(0, γ)
  kCauchy,     // Π_j 1 / (1 + γ Δ_j²);       each ω_j ~ Laplace(0, scale √γ)
  // Matérn with ν = 1/2, 3/2, 5/2 and lengthscale ℓ = 1/√(2γ), r = ‖Δ‖/ℓ:
  // exp(-r), (1 + √3 r) exp(-√3 r), (1 + √5 r + 5r²/3) exp(-√5 r);
  // ω = ε / (ℓ √g), ε ~ N(0, I), g ~ Gamma(ν, rate ν), one g per frequency.
  kMatern12,
  kMatern32,
  kMatern52,
};

// How the frequencies are drawn from the kernel's spectral density.
enum class FrequencySampler {
  kIid,  // independent draws
  // Orthogonal random features (Yu et al. 2016), Gaussian kernel only: blocks
  // of d orthonormal rows (Gram–Schmidt of a Gaussian matrix), each row scaled
  // by an independent χ_d norm. Lower kernel-approximation variance.
  kOrthogonal,
  // Randomized quasi-Monte Carlo, Gaussian kernel only: a Halton sequence with
  // a random shift modulo 1 (Cranley–Patterson), through the normal inverse CDF.
  kQuasiMonteCarlo,
  // Ridge leverage-score sampling (Avron et al. 2017; Li et al. 2019), any
  // kernel: `selection.candidates` iid draws, of which the map keeps the
  // ones in `selection`, each with its weight. The selection depends on data:
  // SelectFeaturesByLeverage() (leverage_features.h) makes it from warm-up rows.
  kLeverage,
};

// The frequencies a kLeverage map keeps: selected[s] indexes the candidate
// draws (repeats allowed), and feature s is multiplied by weights[s], so
// that z(x)·z(y) stays an unbiased estimate of the kernel. One entry per
// frequency: D for the phase map, D/2 for the pair map (its cos and sin share one).
struct FrequencySelection {
  int candidates = 0;
  std::vector<int> selected;
  std::vector<double> weights;
};

struct FeatureMapConfig {
  int input_dimension = 0;
  // D, the length of the feature vector. Even for the pair map.
  int num_features = 256;
  FeatureMapKind map = FeatureMapKind::kPhase;
  KernelKind kernel = KernelKind::kGaussian;
  FrequencySampler sampler = FrequencySampler::kIid;
  // Kernel bandwidth in the scikit-learn convention k = exp(-γ ‖Δ‖²) (see
  // KernelKind for the other kernels).
  double gamma = 1.0;
  // ARD: one lengthscale per input (empty: none). Each Δ_j is divided by ℓ_j
  // and `gamma` is not used. Folded into the frequencies, free per sample.
  std::vector<double> lengthscales;
  // The frequencies are a deterministic function of the seed, identical on
  // every platform and compiler.
  std::uint64_t seed = 1;
  // Optional affine input transform x' = (x - input_offset) / input_scale,
  // applied before the kernel (input standardization). Empty means the
  // identity; otherwise each has input_dimension entries. It is folded into
  // the frequencies, so it costs nothing per sample, but for the offsets of
  // inputs farther from zero than their scale, which the map subtracts in
  // double first (BasicFeatureMap::centres()).
  std::vector<double> input_offset;
  std::vector<double> input_scale;
  // With sampler == kLeverage only (see there); empty otherwise.
  FrequencySelection selection;

  // The number of distinct frequencies: D for the phase map, D/2 for the pair map.
  int num_frequencies() const { return map == FeatureMapKind::kPair ? num_features / 2 : num_features; }
  [[nodiscard]] absl::Status Validate() const;
};

// γ for a Gaussian kernel written exp(-‖Δ‖² / (2ℓ²)) with lengthscale ℓ.
double GammaFromLengthscale(double lengthscale);

std::string_view FeatureMapKindName(FeatureMapKind kind);
[[nodiscard]] absl::StatusOr<FeatureMapKind> ParseFeatureMapKind(std::string_view name);
std::string_view FrequencySamplerName(FrequencySampler sampler);
[[nodiscard]] absl::StatusOr<FrequencySampler> ParseFrequencySampler(std::string_view name);
std::string_view KernelKindName(KernelKind kind);
[[nodiscard]] absl::StatusOr<KernelKind> ParseKernelKind(std::string_view name);

}  // namespace rffstream

#endif  // RFFSTREAM_FEATURE_MAP_CONFIG_H_
