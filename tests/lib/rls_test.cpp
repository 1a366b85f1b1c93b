#include "rffstream/rls.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "Eigen/Dense"
#include "internal/simd_kernels.h"
#include "tests/forced_simd_kernel.h"
#include "tests/sanitized.h"

namespace rffstream {
namespace {

// Deterministic feature vectors with a spread of directions.
std::vector<double> Features(int t, int dimension) {
  std::vector<double> z(dimension);
  for (int i = 0; i < dimension; ++i) z[i] = std::sin(0.7 * t * (i + 1) + 0.3 * i) / std::sqrt(dimension);
  return z;
}

double Target(int t) { return std::cos(0.05 * t) + 0.1 * std::sin(3.1 * t); }

TEST_CASE("RLS with no forgetting equals the batch ridge solution", "[rls]") {
  constexpr int kDimension = 12;
  constexpr double kRidge = 0.01;
  Rls rls(kDimension, kRidge, 1.0);
  Eigen::MatrixXd information = kRidge * Eigen::MatrixXd::Identity(kDimension, kDimension);
  Eigen::VectorXd moment = Eigen::VectorXd::Zero(kDimension);
  for (int t = 0; t < 5000; ++t) {
    const std::vector<double> z = Features(t, kDimension);
    rls.Learn(z, Target(t));
    const Eigen::Map<const Eigen::VectorXd> zv(z.data(), kDimension);
    information += zv * zv.transpose();
    moment += zv * Target(t);
  }
  const Eigen::VectorXd batch = information.ldlt().solve(moment);
  const Eigen::Map<const Eigen::VectorXd> streamed(rls.weights().data(), kDimension);
  CHECK((streamed - batch).norm() <= 1e-9 * batch.norm());
}

// The closed form documented in rls.h:
//   A_n = βⁿ λ I + Σ_t β^(n-t) (z_t z_tᵀ + α e_(t mod D) e_(t mod D)ᵀ),  α = D (1 - β) λ,
//   b_n = Σ_t β^(n-t) z_t y_t,  w = A_n⁻¹ b_n.
TEST_CASE("RLS with forgetting equals its closed-form regularized solution", "[rls]") {
  constexpr int kDimension = 8;
  constexpr double kRidge = 0.05;
  for (double forgetting : {0.99, 0.9}) {
    Rls rls(kDimension, kRidge, forgetting);
    const double alpha = kDimension * (1 - forgetting) * kRidge;
    Eigen::MatrixXd information = kRidge * Eigen::MatrixXd::Identity(kDimension, kDimension);
    Eigen::VectorXd moment = Eigen::VectorXd::Zero(kDimension);
    for (int t = 0; t < 3000; ++t) {
      const std::vector<double> z = Features(t, kDimension);
      const double prior = rls.Learn(z, Target(t));
      const Eigen::Map<const Eigen::VectorXd> zv(z.data(), kDimension);
      // The a-priori prediction uses the weights before this sample.
      const Eigen::VectorXd before = information.ldlt().solve(moment);
      CHECK(prior == Approx(before.dot(zv)).margin(1e-9));
      information = forgetting * information + zv * zv.transpose();
      information(t % kDimension, t % kDimension) += alpha;
      moment = forgetting * moment + zv * Target(t);
    }
    const Eigen::VectorXd closed_form = information.ldlt().solve(moment);
    const Eigen::Map<const Eigen::VectorXd> streamed(rls.weights().data(), kDimension);
    INFO("forgetting " << forgetting);
    CHECK((streamed - closed_form).norm() <= 1e-9 * closed_form.norm());
  }
}

TEST_CASE("Forgetting keeps the regularization alive when inputs stop exciting a direction",
          "[rls]") {
  // Only the first coordinate is excited for a long stretch: without the
  // refresh, P's other diagonal entries would grow as β^-n (wind-up).
  constexpr int kDimension = 6;
  constexpr double kRidge = 0.1, kForgetting = 0.95;
  Rls rls(kDimension, kRidge, kForgetting);
  std::vector<double> z(kDimension, 0.0);
  for (int t = 0; t < 20000; ++t) {
    z[0] = std::sin(0.1 * t);
    rls.Learn(z, 2 * z[0]);
  }
  const std::vector<double> covariance = rls.CovarianceMatrix();
  for (int i = 1; i < kDimension; ++i) {
    const double variance = covariance[i * kDimension + i];
    INFO("P(" << i << ", " << i << ") = " << variance);
    CHECK(std::isfinite(variance));
    // The refresh keeps A_ii >= α β^(D-1) > 0, hence P_ii <= 1 / (α β^(D-1)).
    CHECK(variance <= 1.0 / (kDimension * (1 - kForgetting) * kRidge * std::pow(kForgetting, kDimension - 1)));
  }
  CHECK(rls.weights()[0] == Approx(2.0).margin(0.05));
}

TEST_CASE("A block update equals the same samples learned one by one, with every kernel",
          "[rls][block]") {
  constexpr int kDimension = 24;
  for (const internal::SimdKernelTable* kernels : internal::SupportedSimdKernelTables()) {
    const testing::ForcedSimdKernel forced(kernels->name);
    for (int block : {1, 3, 16, 64}) {
      Rls sequential(kDimension, 0.01, 1.0), blocked(kDimension, 0.01, 1.0);
      std::vector<double> sequential_priors, blocked_priors;
      int t = 0;
      for (int round = 0; round < 6; ++round) {
        std::vector<double> rows, targets, priors(block);
        for (int s = 0; s < block; ++s, ++t) {
          const std::vector<double> z = Features(t, kDimension);
          rows.insert(rows.end(), z.begin(), z.end());
          targets.push_back(Target(t));
          sequential_priors.push_back(sequential.Learn(z, Target(t)));
        }
        blocked.LearnBlock(rows, targets, priors);
        blocked_priors.insert(blocked_priors.end(), priors.begin(), priors.end());
        // A single sample between blocks exercises the lazily settled updates.
        const std::vector<double> z = Features(t, kDimension);
        sequential_priors.push_back(sequential.Learn(z, Target(t)));
        blocked_priors.push_back(blocked.Learn(z, Target(t)));
        ++t;
      }
      INFO("kernel " << kernels->name << ", block " << block);
      for (size_t i = 0; i < sequential_priors.size(); ++i) {
        REQUIRE(blocked_priors[i] == Approx(sequential_priors[i]).margin(1e-9));
      }
      const Eigen::Map<const Eigen::VectorXd> a(sequential.weights().data(), kDimension);
      const Eigen::Map<const Eigen::VectorXd> b(blocked.weights().data(), kDimension);
      CHECK((a - b).norm() <= 1e-9 * a.norm());
      CHECK(blocked.NoiseVarianceEstimate() ==
            Approx(sequential.NoiseVarianceEstimate()).epsilon(1e-9));
    }
  }
}

TEST_CASE("Float32 RLS matches batch ridge after 1e5 samples", "[rls][float32]") {
  // Well conditioned: 16 features of comparable scale, λ = 1.
  constexpr int kDimension = 16;
  RlsF32 rls(kDimension, 1.0, 1.0);
  Eigen::MatrixXd information = Eigen::MatrixXd::Identity(kDimension, kDimension);
  Eigen::VectorXd moment = Eigen::VectorXd::Zero(kDimension);
  for (int t = 0; t < 100000; ++t) {
    const std::vector<double> z = Features(t, kDimension);
    const std::vector<float> z32(z.begin(), z.end());
    rls.Learn(z32, static_cast<float>(Target(t)));
    const Eigen::VectorXd zf = Eigen::Map<const Eigen::VectorXf>(z32.data(), kDimension).cast<double>();
    information += zf * zf.transpose();
    moment += zf * static_cast<double>(static_cast<float>(Target(t)));
  }
  const Eigen::VectorXd batch = information.ldlt().solve(moment);
  const Eigen::VectorXd streamed =
      Eigen::Map<const Eigen::VectorXf>(rls.weights().data(), kDimension).cast<double>();
  CHECK((streamed - batch).norm() <= 1e-3 * batch.norm());
}

TEST_CASE("Float32 with forgetting stays stable over 1e7 updates of poor excitation (1e6 under the sanitizers)",
          "[rls][float32][stability]") {
  // β = 0.999; long stretches excite only 2 of 8 directions, then all of them.
  // Required: no NaN/Inf, P symmetric positive definite, predictions within a
  // bound of a float64 run.
  constexpr int kDimension = 8;
  constexpr double kForgetting = 0.999, kRidge = 0.01;
  RlsF32 single(kDimension, kRidge, kForgetting);
  Rls reference(kDimension, kRidge, kForgetting);
  std::vector<float> z32(kDimension);
  std::vector<double> z64(kDimension);
  double worst_difference = 0;
  long non_finite = 0;
  const long updates = testing::kSanitized ? 1000000 : 10000000;
  for (long t = 0; t < updates; ++t) {
    const bool all_directions = (t / (updates / 10)) % 2 == 1;
    for (int i = 0; i < kDimension; ++i) {
      const bool excited = all_directions || i < 2;
      z64[i] = excited ? std::sin(0.001 * t * (i + 1) + i) : 0.0;
      z32[i] = static_cast<float>(z64[i]);
    }
    const double y = z64[0] - 0.5 * z64[1] + 0.1 * std::sin(0.37 * t);
    const double prior32 = single.Learn(z32, static_cast<float>(y));
    const double prior64 = reference.Learn(z64, y);
    if (!std::isfinite(prior32)) ++non_finite;
    if (t % 1000 == 0) worst_difference = std::max(worst_difference, std::abs(prior32 - prior64));
  }
  // float32 rounding of inputs and targets alone moves predictions by ~1e-6;
  // the bound leaves room for the accumulated rounding of 1e7 updates.
  CHECK(non_finite == 0);
  INFO("worst |float32 - float64| prediction: " << worst_difference);
  CHECK(worst_difference < 1e-3);
  const std::vector<float> covariance = single.CovarianceMatrix();
  Eigen::MatrixXd p(kDimension, kDimension);
  for (int i = 0; i < kDimension; ++i) {
    for (int j = 0; j < kDimension; ++j) p(i, j) = covariance[i * kDimension + j];
  }
  CHECK((p - p.transpose()).norm() == 0.0);
  const Eigen::VectorXd eigenvalues = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(p).eigenvalues();
  INFO("eigenvalues of P: " << eigenvalues.transpose());
  CHECK(eigenvalues.minCoeff() > 0);
  CHECK(eigenvalues.maxCoeff() < 1.0 / (kDimension * (1 - kForgetting) * kRidge *
                                        std::pow(kForgetting, kDimension - 1)));
}

TEST_CASE("The quadratic form and the noise estimate follow their definitions", "[rls][variance]") {
  constexpr int kDimension = 6;
  Rls rls(kDimension, 0.1, 0.995);
  double noise = 0;
  for (int t = 0; t < 20000; ++t) {
    const std::vector<double> z = Features(t, kDimension);
    // Targets: a fixed linear function plus deterministic noise of variance 0.01·(1/2).
    noise = 0.1 * std::sin(12.9898 * t * t);
    rls.Learn(z, z[0] + 2 * z[3] + noise);
  }
  const std::vector<double> z = Features(77, kDimension);
  const std::vector<double> p = rls.CovarianceMatrix();
  double expected = 0;
  for (int i = 0; i < kDimension; ++i) {
    for (int j = 0; j < kDimension; ++j) expected += z[i] * p[i * kDimension + j] * z[j];
  }
  CHECK(rls.CovarianceQuadraticForm(z) == Approx(expected).epsilon(1e-10));
  // The noise has variance 0.1² / 2 = 0.005.
  CHECK(rls.NoiseVarianceEstimate() == Approx(0.005).epsilon(0.15));
}


// A sample that would make the model non-finite is refused, and the model is
// exactly what it would be had the sample never arrived: same weights, same
// later predictions, single samples and blocks alike, with and without forgetting.
TEST_CASE("Samples that would make the model non-finite are refused and change nothing",
          "[rls][nonfinite]") {
  constexpr int kDimension = 10;
  constexpr double kHuge = 1e200;  // finite, but e² overflows
  const double kNaN = std::numeric_limits<double>::quiet_NaN();
  const double kInf = std::numeric_limits<double>::infinity();
  for (double forgetting : {1.0, 0.98}) {
    for (int block : {1, 4}) {
      Rls clean(kDimension, 0.01, forgetting, 2);
      Rls exposed(kDimension, 0.01, forgetting, 2);
      std::vector<double> clean_rows, clean_targets, rows, targets;
      int poisoned = 0;
      for (int t = 0; t < 400; ++t) {
        const std::vector<double> z = Features(t, kDimension);
        const double y[2] = {Target(t), -Target(t)};
        if (t % 37 == 5) {
          // One bad sample of each kind, only in the exposed model's stream.
          std::vector<double> bad_z = z;
          double bad_y[2] = {y[0], y[1]};
          switch (poisoned++ % 4) {
            case 0: bad_z[3] = kNaN; break;
            case 1: bad_z[7] = kInf; break;
            case 2: bad_y[1] = kHuge; break;
            case 3: bad_y[0] = kNaN; break;
          }
          rows.insert(rows.end(), bad_z.begin(), bad_z.end());
          targets.insert(targets.end(), bad_y, bad_y + 2);
        }
        rows.insert(rows.end(), z.begin(), z.end());
        targets.insert(targets.end(), y, y + 2);
        clean_rows.insert(clean_rows.end(), z.begin(), z.end());
        clean_targets.insert(clean_targets.end(), y, y + 2);
      }
      // Learn both streams in blocks of `block` samples.
      const auto learn = [&](Rls& rls, const std::vector<double>& all_rows,
                             const std::vector<double>& all_targets) {
        const std::size_t samples = all_targets.size() / 2;
        std::vector<double> priors(all_targets.size());
        int learned = 0;
        for (std::size_t s = 0; s < samples; s += block) {
          const std::size_t k = std::min<std::size_t>(block, samples - s);
          learned += rls.LearnBlock(
              std::span<const double>(all_rows).subspan(s * kDimension, k * kDimension),
              std::span<const double>(all_targets).subspan(s * 2, k * 2),
              std::span<double>(priors).subspan(s * 2, k * 2));
        }
        return std::make_pair(learned, priors);
      };
      const auto [clean_learned, clean_priors] = learn(clean, clean_rows, clean_targets);
      const auto [learned, priors] = learn(exposed, rows, targets);
      INFO("forgetting " << forgetting << ", block " << block);
      CHECK(clean_learned == 400);
      CHECK(learned == 400);
      int refused = 0;
      for (std::size_t s = 0, c = 0; s < priors.size() / 2; ++s) {
        if (std::isnan(priors[2 * s])) {
          CHECK(std::isnan(priors[2 * s + 1]));
          ++refused;
          continue;
        }
        CHECK(priors[2 * s] == Approx(clean_priors[2 * c]).margin(1e-9));
        ++c;
      }
      CHECK(refused == poisoned);
      for (int output = 0; output < 2; ++output) {
        for (int i = 0; i < kDimension; ++i) {
          REQUIRE(std::isfinite(exposed.weights(output)[i]));
          CHECK(exposed.weights(output)[i] == Approx(clean.weights(output)[i]).margin(1e-9));
        }
        CHECK(exposed.NoiseVarianceEstimate(output) ==
              Approx(clean.NoiseVarianceEstimate(output)).epsilon(1e-9));
      }
    }
  }
}

TEST_CASE("Float32 refuses a target whose error would overflow its range", "[rls][nonfinite]") {
  RlsF32 rls(4, 0.1f, 1.0f);
  const float z[4] = {0.5f, -0.5f, 0.25f, 1.0f};
  CHECK(std::isfinite(rls.Learn(z, 1.0f)));
  CHECK(std::isnan(rls.Learn(z, 3e38f)));  // finite, but e²/c is not
  CHECK(std::isfinite(rls.Predict(z)));
  CHECK(std::isfinite(rls.NoiseVarianceEstimate()));
}

}  // namespace
}  // namespace rffstream
