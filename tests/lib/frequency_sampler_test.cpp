// Every kernel's frequency sampler against its closed form: z(x)·z(y) is an
// unbiased estimate of k(x, y), so its mean over independent seeds must lie
// within a few standard errors of the kernel (fixed seeds: deterministic).
#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>
#include <vector>

#include "rffstream/feature_map.h"
#include "tests/kernel_estimate.h"

namespace rffstream {
namespace {

// k(x, y) in closed form, for Δ already divided by the ARD lengthscales when
// `ard` (then at unit bandwidth, see KernelKind).
double ClosedForm(KernelKind kernel, double gamma, const std::vector<double>& delta, bool ard) {
  double squared = 0, absolute = 0, cauchy = 1;
  const double unit = ard ? 1.0 : gamma;
  for (double value : delta) {
    squared += value * value;
    absolute += std::abs(value);
    cauchy *= 1.0 / (1.0 + unit * value * value);
  }
  const double lengthscale = ard ? 1.0 : 1.0 / std::sqrt(2.0 * gamma);
  const double r = std::sqrt(squared) / lengthscale;
  switch (kernel) {
    case KernelKind::kGaussian:
      return std::exp(-(ard ? 0.5 : gamma) * squared);
    case KernelKind::kLaplacian:
      return std::exp(-unit * absolute);
    case KernelKind::kCauchy:
      return cauchy;
    case KernelKind::kMatern12:
      return std::exp(-r);
    case KernelKind::kMatern32:
      return (1 + std::sqrt(3.0) * r) * std::exp(-std::sqrt(3.0) * r);
    case KernelKind::kMatern52:
      return (1 + std::sqrt(5.0) * r + 5.0 * r * r / 3.0) * std::exp(-std::sqrt(5.0) * r);
  }
  return 0;
}

void CheckKernel(KernelKind kernel, bool ard) {
  constexpr int kSeeds = 300;
  constexpr int kFeatures = 128;
  constexpr double kGamma = 0.6;
  const std::vector<double> lengthscales = {0.5, 2.0, 1.0};
  const std::vector<double> x = {0.3, -0.2, 0.5};
  for (double scale : {0.0, 0.25, 0.7, 1.5}) {
    const std::vector<double> y = {x[0] + scale * 0.4, x[1] - scale * 1.2, x[2] + scale * 0.5};
    std::vector<double> delta(3);
    for (int j = 0; j < 3; ++j) delta[j] = (x[j] - y[j]) / (ard ? lengthscales[j] : 1.0);
    const double expected = ClosedForm(kernel, kGamma, delta, ard);
    FeatureMapConfig config;
    config.input_dimension = 3;
    config.num_features = kFeatures;
    config.kernel = kernel;
    config.gamma = kGamma;
    if (ard) config.lengthscales = lengthscales;
    const auto [mean, standard_error] = testing::EstimateKernel(config, x, y, kSeeds);
    INFO(KernelKindName(kernel) << (ard ? " (ARD)" : "") << ", scale " << scale << ": mean "
                                << mean << ", kernel " << expected << ", standard error "
                                << standard_error);
    CHECK(std::abs(mean - expected) <= 4.5 * standard_error + 1e-12);
  }
}

TEST_CASE("Every kernel's sampler reproduces its closed form", "[frequency_sampler][statistical]") {
  for (KernelKind kernel : {KernelKind::kGaussian, KernelKind::kLaplacian, KernelKind::kCauchy,
                            KernelKind::kMatern12, KernelKind::kMatern32, KernelKind::kMatern52}) {
    CheckKernel(kernel, /*ard=*/false);
    CheckKernel(kernel, /*ard=*/true);
  }
}

// Mean squared error of z(x)·z(y) against the Gaussian kernel over fixed
// pairs and seeds, for one sampler at equal D.
double KernelApproximationError(FrequencySampler sampler) {
  constexpr int kDimension = 8, kFeatures = 64, kSeeds = 200;
  constexpr double kGamma = 0.1;
  double sum = 0;
  int count = 0;
  for (int pair = 0; pair < 10; ++pair) {
    std::vector<double> x(kDimension), y(kDimension);
    double squared = 0;
    for (int j = 0; j < kDimension; ++j) {
      x[j] = std::sin(1.3 * pair + j);
      y[j] = std::cos(0.7 * pair * j + 0.2);
      squared += (x[j] - y[j]) * (x[j] - y[j]);
    }
    const double kernel = std::exp(-kGamma * squared);
    for (int seed = 1; seed <= kSeeds; ++seed) {
      FeatureMapConfig config;
      config.input_dimension = kDimension;
      config.num_features = kFeatures;
      config.map = FeatureMapKind::kPair;
      config.gamma = kGamma;
      config.sampler = sampler;
      config.seed = static_cast<std::uint64_t>(seed);
      const absl::StatusOr<FeatureMap> map = FeatureMap::Create(config);
      std::vector<double> zx(kFeatures), zy(kFeatures);
      map->Map(x, zx);
      map->Map(y, zy);
      const double error = std::inner_product(zx.begin(), zx.end(), zy.begin(), 0.0) - kernel;
      sum += error * error;
      ++count;
    }
  }
  return sum / count;
}

TEST_CASE("Orthogonal and QMC frequencies approximate the kernel with lower error",
          "[frequency_sampler][statistical]") {
  const double iid = KernelApproximationError(FrequencySampler::kIid);
  const double orthogonal = KernelApproximationError(FrequencySampler::kOrthogonal);
  const double quasi = KernelApproximationError(FrequencySampler::kQuasiMonteCarlo);
  INFO("mean squared error: iid " << iid << ", orthogonal " << orthogonal << " ("
                                  << orthogonal / iid << "x), qmc " << quasi << " ("
                                  << quasi / iid << "x)");
  CHECK(orthogonal < 0.9 * iid);
  CHECK(quasi < 0.9 * iid);
}

TEST_CASE("Orthogonal and QMC samplers are unbiased", "[frequency_sampler][statistical]") {
  for (FrequencySampler sampler : {FrequencySampler::kOrthogonal, FrequencySampler::kQuasiMonteCarlo}) {
    const std::vector<double> x = {0.3, -0.2, 0.5}, y = {0.9, 0.4, -0.1};
    FeatureMapConfig config;
    config.input_dimension = 3;
    config.num_features = 32;
    config.gamma = 0.6;
    config.sampler = sampler;
    const auto [mean, standard_error] = testing::EstimateKernel(config, x, y, 300);
    const double expected = std::exp(-0.6 * (0.36 + 0.36 + 0.36));
    INFO(FrequencySamplerName(sampler) << ": mean " << mean << ", kernel " << expected);
    CHECK(std::abs(mean - expected) <= 4.5 * standard_error + 1e-12);
  }
}

TEST_CASE("Structured samplers are for the gaussian kernel only", "[frequency_sampler][errors]") {
  FeatureMapConfig config;
  config.input_dimension = 2;
  config.kernel = KernelKind::kLaplacian;
  config.sampler = FrequencySampler::kOrthogonal;
  CHECK(config.Validate().message() ==
        "feature map: the orthogonal sampler is for the gaussian kernel only");
  CHECK(ParseFrequencySampler("sobol").status().message() ==
        "unknown sampler 'sobol' (expected iid, orthogonal or qmc)");
}

TEST_CASE("Kernel names round-trip and unknown ones are named", "[frequency_sampler][errors]") {
  for (KernelKind kernel : {KernelKind::kGaussian, KernelKind::kLaplacian, KernelKind::kCauchy,
                            KernelKind::kMatern12, KernelKind::kMatern32, KernelKind::kMatern52}) {
    CHECK(*ParseKernelKind(KernelKindName(kernel)) == kernel);
  }
  CHECK(ParseKernelKind("rbf").status().message() ==
        "unknown kernel 'rbf' (expected gaussian, laplacian, cauchy, matern12, matern32 or matern52)");
}

TEST_CASE("ARD lengthscales are validated", "[frequency_sampler][errors]") {
  FeatureMapConfig config;
  config.input_dimension = 3;
  config.lengthscales = {1.0, -2.0, 1.0};
  CHECK(config.Validate().message() ==
        "feature map: lengthscales[1] = -2 is not a positive finite number");
  config.lengthscales = {1.0};
  CHECK(config.Validate().message() ==
        "feature map: lengthscales has 1 entries, expected input_dimension = 3");
}

}  // namespace
}  // namespace rffstream
