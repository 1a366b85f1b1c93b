#include "internal/frequency_sampler.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>
#include <numbers>

#include "internal/random.h"

namespace rffstream::internal {

namespace {

// Gamma(ν, rate ν) for ν = degrees / 2: a χ² with `degrees` degrees of
// freedom, divided by `degrees`.
double SampleScaledChiSquare(RandomEngine& engine, int degrees) {
  double sum = 0;
  for (int k = 0; k < degrees; ++k) {
    const double n = engine.NextStandardNormal();
    sum += n * n;
  }
  return sum / degrees;
}

// Exponential(1) from a uniform in (0, 1].
double SampleExponential(RandomEngine& engine) {
  return -DeterministicLog(1.0 - engine.NextUniform());
}

// Fills one row of ω for the kernel at bandwidth γ.
void SampleRow(const FeatureMapConfig& config, double gamma, RandomEngine& engine, double* row) {
  const int d = config.input_dimension;
  switch (config.kernel) {
    case KernelKind::kGaussian:
      for (int j = 0; j < d; ++j) row[j] = std::sqrt(2.0 * gamma) * engine.NextStandardNormal();
      return;
    case KernelKind::kLaplacian:
      // Cauchy(0, γ) as γ times a ratio of independent standard normals.
      for (int j = 0; j < d; ++j) {
        const double numerator = engine.NextStandardNormal();
        row[j] = gamma * numerator / engine.NextStandardNormal();
      }
      return;
    case KernelKind::kCauchy:
      // Laplace(0, √γ) as √γ times a difference of two Exponential(1).
      for (int j = 0; j < d; ++j) {
        const double first = SampleExponential(engine);
        row[j] = std::sqrt(gamma) * (first - SampleExponential(engine));
      }
      return;
    case KernelKind::kMatern12:
    case KernelKind::kMatern32:
    case KernelKind::kMatern52: {
      const int degrees = config.kernel == KernelKind::kMatern12   ? 1
                          : config.kernel == KernelKind::kMatern32 ? 3
                                                                   : 5;  // 2ν
      const double lengthscale = 1.0 / std::sqrt(2.0 * gamma);
      for (int j = 0; j < d; ++j) row[j] = engine.NextStandardNormal();
      const double g = SampleScaledChiSquare(engine, degrees);
      for (int j = 0; j < d; ++j) row[j] /= lengthscale * std::sqrt(g);
      return;
    }
  }
}

// Rows of an orthogonal random-features block: d orthonormal directions
// (modified Gram–Schmidt of a Gaussian matrix, in plain double arithmetic so
// that it is reproducible), each scaled by the norm of an independent
// d-dimensional Gaussian vector, so that each row is distributed as N(0, I)
// while rows of a block are exactly orthogonal.
void SampleOrthogonalBlock(int d, RandomEngine& engine, std::vector<double>& block) {
  block.resize(static_cast<size_t>(d) * d);
  for (double& value : block) value = engine.NextStandardNormal();
  for (int i = 0; i < d; ++i) {
    double* row = block.data() + static_cast<size_t>(i) * d;
    for (int k = 0; k < i; ++k) {
      const double* previous = block.data() + static_cast<size_t>(k) * d;
      double dot = 0;
      for (int j = 0; j < d; ++j) dot += row[j] * previous[j];
      for (int j = 0; j < d; ++j) row[j] -= dot * previous[j];
    }
    double norm = 0;
    for (int j = 0; j < d; ++j) norm += row[j] * row[j];
    norm = std::sqrt(norm);
    for (int j = 0; j < d; ++j) row[j] /= norm;
  }
  for (int i = 0; i < d; ++i) {
    const double chi = std::sqrt(SampleScaledChiSquare(engine, d) * d);
    for (int j = 0; j < d; ++j) block[static_cast<size_t>(i) * d + j] *= chi;
  }
}

// The inverse of the standard normal CDF (Acklam's rational approximation,
// relative error below 1.2e-9, enough for sampling), from basic operations and
// DeterministicLog only. REQUIRES: 0 < p < 1.
double InverseNormalCdf(double p) {
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                 -2.759285104469687e+02, 1.383577518672690e+02,
                                 -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                 -1.556989798598866e+02, 6.680131188771972e+01,
                                 -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                 -2.400758277161838e+00, -2.549732539343734e+00,
                                 4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                                 2.445134137142996e+00, 3.754408661907416e+00};
  constexpr double kLow = 0.02425;
  if (p < kLow || p > 1 - kLow) {
    const double q = std::sqrt(-2 * DeterministicLog(p < kLow ? p : 1 - p));
    const double x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
                     ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    return p < kLow ? x : -x;
  }
  const double q = p - 0.5;
  const double r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

// The radical inverse of `index` in base `base` (one Halton coordinate).
double RadicalInverse(std::uint64_t index, int base) {
  double result = 0, factor = 1.0 / base;
  for (; index > 0; index /= base, factor /= base) result += factor * static_cast<double>(index % base);
  return result;
}

std::vector<int> FirstPrimes(int count) {
  std::vector<int> primes;
  for (int candidate = 2; static_cast<int>(primes.size()) < count; ++candidate) {
    bool prime = true;
    for (int p : primes) {
      if (p * p > candidate) break;
      if (candidate % p == 0) prime = false;
    }
    if (prime) primes.push_back(candidate);
  }
  return primes;
}

// Randomized quasi-Monte Carlo: a Halton sequence (the first d primes as
// bases) shifted by one uniform draw per dimension modulo 1, through the
// normal's inverse CDF, scaled to N(0, scale² I).
void SampleQuasiMonteCarlo(int count, int d, double scale, RandomEngine& engine,
                           std::vector<double>& projection) {
  const std::vector<int> bases = FirstPrimes(d);
  std::vector<double> shift(d);
  for (double& value : shift) value = engine.NextUniform();
  for (int i = 0; i < count; ++i) {
    for (int j = 0; j < d; ++j) {
      double u = RadicalInverse(static_cast<std::uint64_t>(i) + 1, bases[j]) + shift[j];
      if (u >= 1) u -= 1;
      if (u <= 0) u = 0x1.0p-53;  // keep the inverse CDF finite
      projection[static_cast<size_t>(i) * d + j] = scale * InverseNormalCdf(u);
    }
  }
}

// The leverage sampler's selection (config.selection) of the candidates.
SampledFrequencies KeepSelected(const FeatureMapConfig& config,
                                const SampledFrequencies& candidates) {
  const int d = config.input_dimension;
  SampledFrequencies kept;
  kept.count = config.num_frequencies();
  for (int index : config.selection.selected) {
    const auto row = candidates.projection.begin() + static_cast<std::ptrdiff_t>(index) * d;
    kept.projection.insert(kept.projection.end(), row, row + d);
    kept.offsets.push_back(candidates.offsets[static_cast<std::size_t>(index)]);
  }
  return kept;
}

}  // namespace

// All rows of ω are drawn first, then the phases, so that the pair and the
// phase map of one seed share their leading frequencies.
SampledFrequencies SampleFrequencies(const FeatureMapConfig& config) {
  SampledFrequencies sampled;
  // The leverage sampler draws its candidates as the iid sampler would draw
  // that many frequencies, then keeps its selection of them (below).
  const bool leverage = config.sampler == FrequencySampler::kLeverage;
  sampled.count = leverage ? config.selection.candidates : config.num_frequencies();
  RandomEngine engine(config.seed);
  const int d = config.input_dimension;
  sampled.projection.resize(static_cast<size_t>(sampled.count) * d);
  // With ARD lengthscales the kernel runs on Δ_j / ℓ_j at unit bandwidth:
  // γ = 1 for laplacian and cauchy, 1/2 for gaussian (exp(-r²/2)) and Matérn (ℓ = 1).
  const bool unit_gamma =
      config.kernel == KernelKind::kLaplacian || config.kernel == KernelKind::kCauchy;
  const double gamma = config.lengthscales.empty() ? config.gamma : (unit_gamma ? 1.0 : 0.5);
  const double gaussian_scale = std::sqrt(2.0 * gamma);  // ω ~ N(0, 2γ I)
  switch (config.sampler) {
    case FrequencySampler::kIid:
    case FrequencySampler::kLeverage:
      for (int i = 0; i < sampled.count; ++i) {
        SampleRow(config, gamma, engine, sampled.projection.data() + static_cast<size_t>(i) * d);
      }
      break;
    case FrequencySampler::kOrthogonal: {
      std::vector<double> block;
      for (int first = 0; first < sampled.count; first += d) {
        SampleOrthogonalBlock(d, engine, block);
        const int rows = std::min(d, sampled.count - first);
        for (int k = 0; k < rows * d; ++k) {
          sampled.projection[static_cast<size_t>(first) * d + k] = gaussian_scale * block[k];
        }
      }
      break;
    }
    case FrequencySampler::kQuasiMonteCarlo:
      SampleQuasiMonteCarlo(sampled.count, d, gaussian_scale, engine, sampled.projection);
      break;
  }
  sampled.offsets.assign(sampled.count, 0.0);
  if (config.map == FeatureMapKind::kPhase) {
    for (double& offset : sampled.offsets) offset = 2.0 * std::numbers::pi * engine.NextUniform();
  }
  return leverage ? KeepSelected(config, sampled) : sampled;
}

std::vector<double> InputCentres(const FeatureMapConfig& config) {
  std::vector<double> centres(static_cast<size_t>(config.input_dimension), 0.0);
  for (size_t j = 0; j < config.input_offset.size(); ++j) {
    const double deviation = config.input_scale.empty() ? 1.0 : config.input_scale[j];
    if (std::abs(config.input_offset[j]) > deviation) centres[j] = config.input_offset[j];
  }
  return centres;
}

void FoldInputTransform(const FeatureMapConfig& config, std::span<const double> centres,
                        SampledFrequencies& sampled) {
  const int d = config.input_dimension;
  for (int i = 0; i < sampled.count; ++i) {
    double* row = sampled.projection.data() + static_cast<size_t>(i) * d;
    for (int j = 0; j < d; ++j) {
      if (!config.input_scale.empty()) row[j] /= config.input_scale[j];
      if (!config.lengthscales.empty()) row[j] /= config.lengthscales[j];
      if (!config.input_offset.empty()) {
        sampled.offsets[i] -= row[j] * (config.input_offset[j] - centres[j]);
      }
    }
  }
}

}  // namespace rffstream::internal
