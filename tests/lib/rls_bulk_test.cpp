// Bulk blocks (rls_bulk.cpp, internal/information_update.h) against
// independent references: the batch ridge solution in double, and the same
// samples learned one at a time (priors made before the block). In every
// SIMD kernel, float32 and float64, with threads, refused samples, and the
// model settled back to L, D when something else needs it.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "Eigen/Dense"
#include "internal/factor_block_access.h"
#include "internal/simd_kernels.h"
#include "rffstream/rls.h"
#include "rffstream/thread_pool.h"
#include "tests/forced_simd_kernel.h"

namespace rffstream {
namespace {

constexpr int kOutputs = 2;
constexpr double kRidge = 1e-7;  // below kSmallestCovarianceRidge: the factor form in float64 too
constexpr int kBulk = BasicRls<double>::kBulkSamples;

// Gaussian features and two noisy linear targets, row-major.
struct Stream {
  Stream(int samples, int dimension, unsigned seed) : dimension(dimension) {
    std::mt19937 generator(seed);
    std::normal_distribution<double> normal;
    std::vector<double> truth(static_cast<std::size_t>(dimension) * kOutputs);
    for (double& value : truth) value = normal(generator);
    for (int t = 0; t < samples; ++t) {
      for (int i = 0; i < dimension; ++i) features.push_back(normal(generator) / std::sqrt(dimension));
      for (int o = 0; o < kOutputs; ++o) {
        double target = 0.1 * normal(generator);
        for (int i = 0; i < dimension; ++i) target += truth[o * dimension + i] * features[t * dimension + i];
        targets.push_back(target);
      }
    }
  }
  template <class Real>
  std::vector<Real> Features(int first, int count) const {
    return std::vector<Real>(features.begin() + first * dimension, features.begin() + (first + count) * dimension);
  }
  template <class Real>
  std::vector<Real> Targets(int first, int count) const {
    return std::vector<Real>(targets.begin() + first * kOutputs, targets.begin() + (first + count) * kOutputs);
  }
  int dimension;
  std::vector<double> features, targets;
};

// w = (λI + ZᵀZ)⁻¹ Zᵀ y over the first `samples` samples, output `o`.
Eigen::VectorXd BatchRidge(const Stream& stream, int samples, int o) {
  using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::Map<const RowMatrix> z(stream.features.data(), samples, stream.dimension);
  const Eigen::Map<const RowMatrix> y(stream.targets.data(), samples, kOutputs);
  Eigen::MatrixXd a = z.transpose() * z;
  a.diagonal().array() += kRidge;
  return a.ldlt().solve(z.transpose() * y.col(o));
}

template <class Real>
double RelativeError(std::span<const Real> weights, const Eigen::VectorXd& reference) {
  double error = 0;
  for (int i = 0; i < reference.size(); ++i) error += std::pow(weights[i] - reference[i], 2);
  return std::sqrt(error) / reference.norm();
}

// Blocks of kBulk and a short tail, in this kernel: the batch ridge weights.
template <class Real>
void CheckBulkEqualsBatchRidge(double tolerance) {
  const int d = 48, samples = 3 * kBulk + 100;
  const Stream stream(samples, d, 7);
  BasicRls<Real> rls(d, kRidge, 1.0, kOutputs);
  for (int first = 0; first < samples; first += kBulk) {
    const int count = std::min(kBulk, samples - first);
    std::vector<Real> priors(static_cast<std::size_t>(count) * kOutputs);
    REQUIRE(rls.LearnBlock(stream.Features<Real>(first, count), stream.Targets<Real>(first, count), priors) == count);
    for (int o = 0; o < kOutputs; ++o) {
      CHECK(RelativeError(rls.weights(o), BatchRidge(stream, first + count, o)) < tolerance);
    }
  }
}

TEST_CASE("Bulk blocks give the batch ridge weights in every SIMD kernel", "[rls][bulk]") {
  for (const internal::SimdKernelTable* table : internal::SupportedSimdKernelTables()) {
    const testing::ForcedSimdKernel forced(table->name);
    INFO("kernel " << table->name);
    CheckBulkEqualsBatchRidge<double>(1e-9);
    CheckBulkEqualsBatchRidge<float>(1e-4);
  }
}

// A bulk block against the same samples learned one at a time: the priors
// are the model's before the block, and the model after it (weights, noise
// estimate, zᵀPz, the information form) is the same to rounding, in bulk
// and once settled by the samples learned after it one at a time.
TEST_CASE("A bulk block is its samples learned one at a time, predicted before the block", "[rls][bulk]") {
  const int d = 40, after = 50;
  const Stream stream(kBulk + after, d, 11);
  Rls bulk(d, kRidge, 1.0, kOutputs), single(d, kRidge, 1.0, kOutputs);
  REQUIRE(bulk.square_root_form());
  const std::vector<double> features = stream.Features<double>(0, kBulk);
  std::vector<double> priors(kBulk * kOutputs), single_priors(kOutputs);
  REQUIRE(bulk.LearnBlock(features, stream.Targets<double>(0, kBulk), priors) == kBulk);
  for (int s = 0; s < kBulk; ++s) {
    for (int o = 0; o < kOutputs; ++o) CHECK(priors[s * kOutputs + o] == 0.0);  // w = 0 before the block
    REQUIRE(single.LearnOutputs(stream.Features<double>(s, 1), stream.Targets<double>(s, 1), single_priors));
  }
  for (int o = 0; o < kOutputs; ++o) {
    CHECK(RelativeError(bulk.weights(o), Eigen::Map<const Eigen::VectorXd>(single.weights(o).data(), d)) < 1e-9);
    CHECK(bulk.NoiseVarianceEstimate(o) == Approx(single.NoiseVarianceEstimate(o)).epsilon(1e-9));
  }
  const std::vector<double> probe = stream.Features<double>(kBulk, 1);
  CHECK(bulk.CovarianceQuadraticForm(probe) == Approx(single.CovarianceQuadraticForm(probe)).epsilon(1e-9));
  const auto bulk_form = bulk.ToInformationForm(), single_form = single.ToInformationForm();
  REQUIRE(bulk_form.ok());
  REQUIRE(single_form.ok());
  for (std::size_t i = 0; i < bulk_form->information.size(); ++i) {
    CHECK(bulk_form->information[i] == Approx(single_form->information[i]).epsilon(1e-9).margin(1e-12));
  }
  // Both against A = λI + ZᵀZ, made here (from Q in bulk, from L and D once settled).
  using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::Map<const RowMatrix> z(features.data(), kBulk, d);
  const RowMatrix closed_form = kRidge * RowMatrix::Identity(d, d) + z.transpose() * z;
  for (const auto* form : {&*bulk_form, &*single_form}) {
    const Eigen::Map<const RowMatrix> information(form->information.data(), d, d);
    CHECK((information - closed_form).norm() < 1e-9 * closed_form.norm());
  }
  // A second bulk block is predicted with the first one's weights.
  Rls twice = bulk;
  std::vector<double> second_priors(kBulk * kOutputs);
  REQUIRE(twice.LearnBlock(stream.Features<double>(0, kBulk), stream.Targets<double>(0, kBulk), second_priors) == kBulk);
  for (int s = 0; s < kBulk; s += 97) {
    CHECK(second_priors[s * kOutputs + 1] ==
          Approx(bulk.Predict(std::span<const double>(features).subspan(s * d, d), 1)).epsilon(1e-12));
  }
  // One at a time after the bulk block: settled to L, D, as if all had been.
  std::vector<double> bulk_priors(kOutputs);
  for (int s = kBulk; s < kBulk + after; ++s) {
    REQUIRE(bulk.LearnOutputs(stream.Features<double>(s, 1), stream.Targets<double>(s, 1), bulk_priors));
    REQUIRE(single.LearnOutputs(stream.Features<double>(s, 1), stream.Targets<double>(s, 1), single_priors));
    for (int o = 0; o < kOutputs; ++o) CHECK(bulk_priors[o] == Approx(single_priors[o]).epsilon(1e-9));
  }
  CHECK(bulk.CovarianceQuadraticForm(probe) == Approx(single.CovarianceQuadraticForm(probe)).epsilon(1e-9));
}

// A sample that cannot be learned makes the block be learned one at a
// time, which refuses that sample alone; the model is the one that never saw it.
TEST_CASE("A bulk block with an unlearnable sample refuses that sample alone", "[rls][bulk]") {
  const int d = 32, spoiled = 517;
  const Stream stream(2 * kBulk, d, 13);
  for (const float spoiled_target : {0.0f, 1e30f, 3e17f}) {
    const bool infinite_feature = spoiled_target == 0.0f;
    // 3e17: finite, its square too, but past the bound one at a time holds errors to.
    INFO("spoiled target " << spoiled_target);
    RlsF32 bulk(d, kRidge, 1.0, kOutputs), single(d, kRidge, 1.0, kOutputs);
    std::vector<float> priors(kBulk * kOutputs), single_priors(kOutputs);
    REQUIRE(bulk.LearnBlock(stream.Features<float>(0, kBulk), stream.Targets<float>(0, kBulk), priors) == kBulk);
    std::vector<float> features = stream.Features<float>(kBulk, kBulk), targets = stream.Targets<float>(kBulk, kBulk);
    if (infinite_feature) {
      features[spoiled * d + 3] = std::numeric_limits<float>::infinity();
    } else {
      targets[spoiled * kOutputs] = spoiled_target;
    }
    CHECK(bulk.LearnBlock(features, targets, priors) == kBulk - 1);
    CHECK(std::isnan(priors[spoiled * kOutputs]));
    for (int s = 0; s < 2 * kBulk; ++s) {
      if (s == kBulk + spoiled) continue;
      REQUIRE(single.LearnOutputs(stream.Features<float>(s, 1), stream.Targets<float>(s, 1), single_priors));
    }
    for (int o = 0; o < kOutputs; ++o) {
      std::vector<double> reference(single.weights(o).begin(), single.weights(o).end());
      CHECK(RelativeError(bulk.weights(o), Eigen::Map<const Eigen::VectorXd>(reference.data(), d)) < 1e-4);
      CHECK(bulk.NoiseVarianceEstimate(o) == Approx(single.NoiseVarianceEstimate(o)).epsilon(1e-3));
    }
  }
}

// A bulk block refused after Q was made for it leaves L, D as they were: the
// block learned one sample at a time has the bits of single steps.
TEST_CASE("A refused bulk block leaves the factor's bits as single steps leave them", "[rls][bulk]") {
  const int d = 24, first = 100;
  const Stream stream(first + kBulk, d, 29);
  RlsF32 bulk(d, kRidge, 1.0, kOutputs);
  std::vector<float> priors(static_cast<std::size_t>(first + kBulk) * kOutputs);
  for (int s = 0; s < first; ++s) {
    REQUIRE(bulk.LearnOutputs(stream.Features<float>(s, 1), stream.Targets<float>(s, 1),
                              std::span<float>(priors).subspan(s * kOutputs, kOutputs)));
  }
  RlsF32 single = bulk;
  std::vector<float> targets = stream.Targets<float>(first, kBulk);
  targets[700 * kOutputs + 1] = 3e17f;  // refused by its error's bound, after the update
  const std::vector<float> features = stream.Features<float>(first, kBulk);
  CHECK(bulk.LearnBlock(features, targets, priors) == kBulk - 1);
  for (int s = 0; s < kBulk; ++s) {
    single.LearnOutputs(std::span<const float>(features).subspan(s * d, d),
                        std::span<const float>(targets).subspan(s * kOutputs, kOutputs),
                        std::span<float>(priors).subspan(0, kOutputs));
  }
  CHECK(internal::FactorBlockAccess::FactorState(bulk) == internal::FactorBlockAccess::FactorState(single));
  for (int o = 0; o < kOutputs; ++o) {
    CHECK(std::vector<float>(bulk.weights(o).begin(), bulk.weights(o).end()) ==
          std::vector<float>(single.weights(o).begin(), single.weights(o).end()));
  }
}

// Blocks longer than one pass (InformationRowsPerPass), a dimension of
// several parts and panels with a tail, started from a factor that single
// steps learned: the batch ridge weights; then a new ridge, exactly.
TEST_CASE("Bulk blocks of several passes, from a learned factor, give the batch ridge weights", "[rls][bulk]") {
  const int d = 301, first = 300, samples = first + 2500;
  const Stream stream(samples, d, 19);
  Rls rls(d, kRidge, 1.0, kOutputs);
  std::vector<double> priors(static_cast<std::size_t>(samples) * kOutputs);
  for (int s = 0; s < first; ++s) {
    REQUIRE(rls.LearnOutputs(stream.Features<double>(s, 1), stream.Targets<double>(s, 1),
                             std::span<double>(priors).subspan(s * kOutputs, kOutputs)));
  }
  REQUIRE(rls.LearnBlock(stream.Features<double>(first, samples - first),
                         stream.Targets<double>(first, samples - first), priors) == samples - first);
  for (int o = 0; o < kOutputs; ++o) CHECK(RelativeError(rls.weights(o), BatchRidge(stream, samples, o)) < 1e-9);
  REQUIRE(rls.SetRidge(1.0).ok());
  using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::Map<const RowMatrix> z(stream.features.data(), samples, d);
  const Eigen::Map<const RowMatrix> y(stream.targets.data(), samples, kOutputs);
  Eigen::MatrixXd a = z.transpose() * z;
  a.diagonal().array() += 1.0;
  CHECK(RelativeError(rls.weights(1), a.ldlt().solve(z.transpose() * y.col(1))) < 1e-9);
}

// Threads share the columns left of each panel in fixed parts: the same bits.
TEST_CASE("Bulk blocks give the same bits with any number of threads", "[rls][bulk][threads]") {
  const int d = 300;
  const Stream stream(kBulk, d, 17);
  RlsF32 alone(d, kRidge, 1.0, kOutputs), shared(d, kRidge, 1.0, kOutputs);
  shared.SetThreadPool(std::make_shared<ThreadPool>(2));
  std::vector<float> alone_priors(kBulk * kOutputs), shared_priors(kBulk * kOutputs);
  for (int round = 0; round < 2; ++round) {
    REQUIRE(alone.LearnBlock(stream.Features<float>(0, kBulk), stream.Targets<float>(0, kBulk), alone_priors) == kBulk);
    REQUIRE(shared.LearnBlock(stream.Features<float>(0, kBulk), stream.Targets<float>(0, kBulk), shared_priors) == kBulk);
  }
  CHECK(alone_priors == shared_priors);
  for (int o = 0; o < kOutputs; ++o) {
    CHECK(std::vector<float>(alone.weights(o).begin(), alone.weights(o).end()) ==
          std::vector<float>(shared.weights(o).begin(), shared.weights(o).end()));
  }
  CHECK(alone.CovarianceMatrix() == shared.CovarianceMatrix());
}

}  // namespace
}  // namespace rffstream
