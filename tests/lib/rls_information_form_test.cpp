// A state given whole (BasicRls::SetInformationForm) against independent
// references, in every SIMD kernel: the batch ridge weights, the same
// samples learned one at a time (zᵀPz, and with the targets' squares the
// noise sums), and the learning that goes on from it; the information delta's
// sums against the Gram matrix computed here.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <span>
#include <random>
#include <vector>

#include "Eigen/Dense"
#include "internal/simd_kernels.h"
#include "rffstream/information_delta.h"
#include "rffstream/rls.h"
#include "tests/forced_simd_kernel.h"

namespace rffstream {
namespace {

constexpr int kDimension = 40, kOutputs = 2, kSamples = 1500;

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Gaussian features, two noisy linear targets.
struct Stream {
  explicit Stream(unsigned seed) : features(kSamples, kDimension), targets(kSamples, kOutputs) {
    std::mt19937 generator(seed);
    std::normal_distribution<double> normal;
    RowMatrix truth(kDimension, kOutputs);
    for (double& value : truth.reshaped()) value = normal(generator);
    for (double& value : features.reshaped()) value = normal(generator) / std::sqrt(kDimension);
    targets = features * truth;
    for (double& value : targets.reshaped()) value += 0.1 * normal(generator);
  }
  template <class Real>
  std::vector<Real> Row(const RowMatrix& matrix, int t) const {
    return std::vector<Real>(matrix.row(t).begin(), matrix.row(t).end());
  }
  RowMatrix features, targets;
};

// A = λI + ZᵀZ, b = Zᵀy, Σ y²: the form of every sample, computed here.
RlsInformationForm FormOf(const Stream& stream, double ridge) {
  RowMatrix a = stream.features.transpose() * stream.features;
  a.diagonal().array() += ridge;
  RlsInformationForm form;
  form.information.assign(a.data(), a.data() + a.size());
  for (int o = 0; o < kOutputs; ++o) {
    const Eigen::VectorXd b = stream.features.transpose() * stream.targets.col(o);
    form.target_sums.insert(form.target_sums.end(), b.begin(), b.end());
    form.target_squares.push_back(stream.targets.col(o).squaredNorm());
  }
  form.noise_sums.assign(kOutputs, -1.0);  // replaced: the squares are given
  form.noise_weight = kSamples;
  return form;
}

template <class Real>
void CheckGivenWholeEqualsOneAtATime(double ridge, double tolerance) {
  const Stream stream(3);
  BasicRls<Real> sequential(kDimension, ridge, 1.0, kOutputs);
  std::vector<Real> priors(kOutputs);
  for (int t = 0; t < kSamples; ++t) {
    REQUIRE(sequential.LearnOutputs(stream.Row<Real>(stream.features, t),
                                    stream.Row<Real>(stream.targets, t), priors));
  }
  BasicRls<Real> given(kDimension, ridge, 1.0, kOutputs);
  REQUIRE(given.SetInformationForm(FormOf(stream, ridge)).ok());
  const auto relative = [](double a, double b) { return std::abs(a - b) / std::abs(b); };
  for (int o = 0; o < kOutputs; ++o) {
    for (int i = 0; i < kDimension; ++i) {
      CHECK(given.weights(o)[i] == Approx(sequential.weights(o)[i]).epsilon(tolerance).margin(tolerance));
    }
    // Σ y² − bᵀw is what the samples' Σ e²/(1 + zᵀPz) adds up to (β = 1).
    CHECK(relative(given.noise_sums()[o], sequential.noise_sums()[o]) < tolerance);
  }
  CHECK(given.noise_weight() == kSamples);
  const std::vector<Real> probe = stream.Row<Real>(stream.features, 7);
  CHECK(relative(given.CovarianceQuadraticForm(probe), sequential.CovarianceQuadraticForm(probe)) <
        tolerance);
  // Learning goes on from it as from the samples themselves.
  for (int t = 0; t < 20; ++t) {
    const std::vector<Real> z = stream.Row<Real>(stream.features, t), y = stream.Row<Real>(stream.targets, t);
    std::vector<Real> from_given(kOutputs), from_sequential(kOutputs);
    REQUIRE(given.LearnOutputs(z, y, from_given));
    REQUIRE(sequential.LearnOutputs(z, y, from_sequential));
    for (int o = 0; o < kOutputs; ++o) {
      CHECK(from_given[o] == Approx(from_sequential[o]).epsilon(tolerance).margin(tolerance));
    }
  }
}

TEST_CASE("A state given whole is the samples learned one at a time, noise sums included, in every "
          "SIMD kernel",
          "[rls][information]") {
  for (const internal::SimdKernelTable* table : internal::SupportedSimdKernelTables()) {
    const testing::ForcedSimdKernel forced(table->name);
    INFO("kernel " << table->name);
    // The square root of A (float32; float64 below a ridge of 10⁻⁶), and
    // float64's covariance form.
    CheckGivenWholeEqualsOneAtATime<float>(1e-2, 2e-3);
    CheckGivenWholeEqualsOneAtATime<double>(1e-8, 1e-8);
    CheckGivenWholeEqualsOneAtATime<double>(1e-2, 1e-9);
  }
}

TEST_CASE("A form that is not positive definite is refused, the state kept", "[rls][information][errors]") {
  const Stream stream(5);
  RlsInformationForm form = FormOf(stream, 1e-2);
  form.information[0] = -1;  // A_00 < 0
  for (const double ridge : {1e-2, 1e-8}) {
    BasicRls<double> rls(kDimension, ridge, 1.0, kOutputs);
    const std::vector<double> before(rls.weights(0).begin(), rls.weights(0).end());
    CHECK(absl::IsFailedPrecondition(rls.SetInformationForm(form)));
    CHECK(std::vector<double>(rls.weights(0).begin(), rls.weights(0).end()) == before);
  }
  CHECK(absl::IsFailedPrecondition(ExplainedSquares(form).status()));
  RlsInformationForm ragged = FormOf(stream, 1e-2);
  ragged.information.pop_back();
  CHECK(absl::IsInvalidArgument(ExplainedSquares(ragged).status()));
}

TEST_CASE("The information delta's sums are the Gram matrix, in every SIMD kernel", "[information]") {
  const Stream stream(9);
  const RowMatrix gram = stream.features.transpose() * stream.features;
  const RowMatrix sums = stream.features.transpose() * stream.targets;
  for (const internal::SimdKernelTable* table : internal::SupportedSimdKernelTables()) {
    const testing::ForcedSimdKernel forced(table->name);
    INFO("kernel " << table->name);
    InformationDelta delta(kDimension, kOutputs);
    for (int t = 0; t < kSamples; ++t) {  // several folds of its blocks, and a part of one
      delta.Add(stream.Row<double>(stream.features, t), stream.Row<double>(stream.targets, t));
    }
    const std::span<const double> got = delta.Sums();
    for (int i = 0; i < kDimension; ++i) {
      for (int j = 0; j < kDimension; ++j) {
        CHECK(got[i * kDimension + j] == Approx(gram(i, j)).epsilon(1e-12).margin(1e-12));
      }
      for (int o = 0; o < kOutputs; ++o) {
        CHECK(got[kDimension * kDimension + o * kDimension + i] ==
              Approx(sums(i, o)).epsilon(1e-12).margin(1e-12));
      }
    }
    CHECK(got.back() == kSamples);
  }
}

// Sums() makes its array ready in the delta's own storage: asked for on the
// way (and twice), it changes nothing the later sums hold, with forgetting
// and its refresh terms too.
TEST_CASE("The information delta's sums asked for on the way change nothing", "[information]") {
  const Stream stream(10);
  for (const double forgetting : {1.0, 0.99}) {
    INFO("forgetting " << forgetting);
    InformationDelta asked(kDimension, kOutputs, forgetting, 0.5);
    InformationDelta untouched(kDimension, kOutputs, forgetting, 0.5);
    for (int t = 0; t < kSamples; ++t) {
      for (InformationDelta* delta : {&asked, &untouched}) {
        delta->Add(stream.Row<double>(stream.features, t), stream.Row<double>(stream.targets, t), t + 1);
      }
      if (t == kSamples / 3 || t == kSamples / 2) {
        // At a clock past the latest too: the samples added after it are older.
        const std::int64_t at = t == kSamples / 3 ? t + 1 : t + 4;
        const std::span<const double> once = asked.Sums(at);
        const std::vector<double> first(once.begin(), once.end());
        const std::span<const double> again = asked.Sums(at);
        CHECK(std::equal(first.begin(), first.end(), again.begin(), again.end()));
      }
    }
    const std::span<const double> got = asked.Sums(kSamples + 5);
    const std::span<const double> expected = untouched.Sums(kSamples + 5);
    REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      CHECK(got[i] == Approx(expected[i]).epsilon(1e-12).margin(1e-12));
    }
  }
}

}  // namespace
}  // namespace rffstream
