// float32's factor form (P = L D Lᵀ, rls.h) against
// independent references: float64's covariance engine and a batch ridge
// solve in double, on streams that break a float32 covariance form (a tiny
// ridge, strong forgetting, long and ill-conditioned); and the same results
// in every SIMD kernel (blocks: rls_factor_block_test.cpp).
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "Eigen/Dense"
#include "internal/simd_kernels.h"
#include "rffstream/rls.h"
#include "tests/forced_simd_kernel.h"
#include "tests/narrow_stream.h"

namespace rffstream {
namespace {

using testing::NarrowFeatures;
using testing::NarrowTarget;

std::vector<float> ToFloat(const std::vector<double>& values) {
  return std::vector<float>(values.begin(), values.end());
}

double RelativeRms(const std::vector<double>& values, const std::vector<double>& reference) {
  double difference = 0, scale = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    difference += (values[i] - reference[i]) * (values[i] - reference[i]);
    scale += reference[i] * reference[i];
  }
  return std::sqrt(difference / scale);
}

TEST_CASE("float32's factor form learns every sample where the covariance form broke down",
          "[rls][factor]") {
  constexpr int kDimension = 32, kSamples = 60000;
  // At ridge 10⁻¹² the reference is float64's factor form (rls.h), and the
  // two agree to about 10⁻³, with a margin for the rounding of other builds.
  struct Setting {
    double ridge, forgetting, tolerance;
  };
  for (const auto& [ridge, forgetting, tolerance] :
       std::initializer_list<Setting>{{1e-2, 1.0, 1e-3}, {1e-8, 1.0, 1e-3}, {1e-12, 1.0, 2e-3},
                                      {1e-2, 0.999, 1e-3}, {1e-2, 0.9, 1e-3}}) {
    INFO("ridge " << ridge << ", forgetting " << forgetting);
    RlsF32 single(kDimension, ridge, forgetting);
    Rls reference(kDimension, ridge, forgetting);
    std::vector<double> priors, reference_priors;
    for (int t = 0; t < kSamples; ++t) {
      const std::vector<double> z = NarrowFeatures(t, kDimension);
      const float prior = single.Learn(ToFloat(z), static_cast<float>(NarrowTarget(t)));
      REQUIRE(std::isfinite(prior));  // every sample learned
      priors.push_back(prior);
      reference_priors.push_back(reference.Learn(z, NarrowTarget(t)));
    }
    CHECK(RelativeRms(priors, reference_priors) < tolerance);
    // P stays positive definite: its quadratic form is positive everywhere tried.
    for (int t = 0; t < 100; ++t) CHECK(single.CovarianceQuadraticForm(ToFloat(NarrowFeatures(t, kDimension))) > 0);
  }
}

TEST_CASE("float32's factor form with no forgetting is the batch ridge solution", "[rls][factor]") {
  constexpr int kDimension = 16;
  constexpr double kRidge = 1e-3;
  RlsF32 rls(kDimension, kRidge, 1.0);
  Eigen::MatrixXd information = kRidge * Eigen::MatrixXd::Identity(kDimension, kDimension);
  Eigen::VectorXd moment = Eigen::VectorXd::Zero(kDimension);
  for (int t = 0; t < 20000; ++t) {
    const std::vector<double> z = NarrowFeatures(t, kDimension);
    const std::vector<float> zf = ToFloat(z);
    rls.Learn(zf, static_cast<float>(NarrowTarget(t)));
    const Eigen::VectorXd zd = Eigen::Map<const Eigen::VectorXf>(zf.data(), kDimension).cast<double>();
    information += zd * zd.transpose();
    moment += zd * static_cast<double>(static_cast<float>(NarrowTarget(t)));
  }
  const Eigen::VectorXd batch = information.ldlt().solve(moment);
  // Compared where it matters: the predictions on the stream's own inputs.
  double difference = 0, scale = 0;
  for (int t = 0; t < 2000; ++t) {
    const std::vector<float> z = ToFloat(NarrowFeatures(t, kDimension));
    const double expected = batch.dot(Eigen::Map<const Eigen::VectorXf>(z.data(), kDimension).cast<double>());
    difference += std::pow(rls.Predict(z) - expected, 2);
    scale += expected * expected;
  }
  CHECK(std::sqrt(difference / scale) < 1e-3);
}

TEST_CASE("Every SIMD kernel's factor step agrees with the scalar reference", "[rls][factor][simd]") {
  constexpr int kDimension = 37;  // not a multiple of any vector width
  std::vector<std::vector<float>> weights;
  for (const internal::SimdKernelTable* table : internal::SupportedSimdKernelTables()) {
    testing::ForcedSimdKernel forced(table->name);
    RlsF32 rls(kDimension, 1e-6, 0.99);
    for (int t = 0; t < 3000; ++t) rls.Learn(ToFloat(NarrowFeatures(t, kDimension)), static_cast<float>(NarrowTarget(t)));
    weights.emplace_back(rls.weights().begin(), rls.weights().end());
  }
  for (std::size_t k = 1; k < weights.size(); ++k) {
    std::vector<double> a(weights[k].begin(), weights[k].end()), b(weights[0].begin(), weights[0].end());
    CHECK(RelativeRms(a, b) < 1e-4);
  }
}

TEST_CASE("float32 refuses a sample that could overflow, before touching the factor",
          "[rls][factor][errors]") {
  constexpr int kDimension = 8;
  RlsF32 rls(kDimension, 1e-2, 1.0);
  for (int t = 0; t < 100; ++t) rls.Learn(ToFloat(NarrowFeatures(t, kDimension)), 1.0f);
  const std::vector<float> weights(rls.weights().begin(), rls.weights().end());
  const std::vector<float> probe = ToFloat(NarrowFeatures(7, kDimension));
  const float before = rls.CovarianceQuadraticForm(probe);
  std::vector<float> huge(kDimension, 1e30f), nan(kDimension, 0.0f);
  nan[3] = std::numeric_limits<float>::quiet_NaN();
  CHECK(std::isnan(rls.Learn(huge, 1.0f)));
  CHECK(std::isnan(rls.Learn(nan, 1.0f)));
  CHECK(std::isnan(rls.Learn(probe, 1e30f)));
  CHECK(std::vector<float>(rls.weights().begin(), rls.weights().end()) == weights);
  CHECK(rls.CovarianceQuadraticForm(probe) == before);
  CHECK(std::isfinite(rls.Learn(probe, 1.0f)));  // and it goes on learning
}

TEST_CASE("float32 refuses samples that would shrink D past its range, before touching it",
          "[rls][factor][errors]") {
  // Samples that grow 1.6× a step, in every direction: P shrinks in all of
  // them, trace(P) with it, so c stays moderate while the d's approach
  // float32's smallest numbers. The step's shrink bound must refuse first.
  constexpr int kDimension = 8;
  RlsF32 rls(kDimension, 1e-2, 1.0);
  const std::vector<float> probe = ToFloat(NarrowFeatures(3, kDimension));
  int refused = 0;
  for (int k = 0; k < 200; ++k) {
    std::vector<float> z(kDimension);
    for (int i = 0; i < kDimension; ++i) {
      z[i] = static_cast<float>(std::cos(0.7 * k * (i + 1) + i) * std::pow(1.6, k));
    }
    const std::vector<float> weights(rls.weights().begin(), rls.weights().end());
    const float before = rls.CovarianceQuadraticForm(probe);
    if (std::isnan(rls.Learn(z, 1.0f))) {
      ++refused;
      CHECK(std::vector<float>(rls.weights().begin(), rls.weights().end()) == weights);
      CHECK(rls.CovarianceQuadraticForm(probe) == before);
    }
    const float form = rls.CovarianceQuadraticForm(probe);
    INFO("sample " << k);
    CHECK(form > 0);
    CHECK(std::isfinite(form));
  }
  CHECK(refused > 0);
}

}  // namespace
}  // namespace rffstream
