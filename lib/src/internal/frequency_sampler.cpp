#include "internal/frequency_sampler.h"

#include <cmath>
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

}  // namespace

// All rows of ω are drawn first, then the phases, so that the pair and the
// phase map of one seed share their leading frequencies.
SampledFrequencies SampleFrequencies(const FeatureMapConfig& config) {
  SampledFrequencies sampled;
  sampled.count =
      config.map == FeatureMapKind::kPair ? config.num_features / 2 : config.num_features;
  RandomEngine engine(config.seed);
  const int d = config.input_dimension;
  sampled.projection.resize(static_cast<size_t>(sampled.count) * d);
  // With ARD lengthscales the kernel runs on Δ_j / ℓ_j at unit bandwidth:
  // γ = 1 for laplacian and cauchy, 1/2 for gaussian (exp(-r²/2)) and Matérn (ℓ = 1).
  const bool unit_gamma =
      config.kernel == KernelKind::kLaplacian || config.kernel == KernelKind::kCauchy;
  const double gamma = config.lengthscales.empty() ? config.gamma : (unit_gamma ? 1.0 : 0.5);
  for (int i = 0; i < sampled.count; ++i) {
    SampleRow(config, gamma, engine, sampled.projection.data() + static_cast<size_t>(i) * d);
  }
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
      if (!config.lengthscales.empty()) row[j] /= config.lengthscales[j];
      if (!config.input_offset.empty()) sampled.offsets[i] -= row[j] * config.input_offset[j];
    }
  }
}

}  // namespace rffstream::internal
