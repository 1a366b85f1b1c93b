// float64 below a ridge of BasicRls::kSmallestCovarianceRidge keeps the
// square-root form: against a batch ridge solve by Householder QR of the
// stacked [Z; sqrt(λ) I] (backward stable, never forms ZᵀZ), on a stream
// whose condition number, (λ + n) / λ ≈ 10¹⁶, is past what float64's
// covariance form holds (it ends 10⁻⁵ from the batch solution, the factor
// form 10⁻¹²); a new ridge that crosses the threshold changes the
// form and keeps the model exact.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "Eigen/Dense"
#include "rffstream/rls.h"
#include "tests/narrow_stream.h"

namespace rffstream {
namespace {

using testing::NarrowFeatures;
using testing::NarrowTarget;

// The ridge solution of the first `samples` samples.
Eigen::VectorXd BatchRidge(int samples, int dimension, double ridge) {
  Eigen::MatrixXd stacked = Eigen::MatrixXd::Zero(samples + dimension, dimension);
  Eigen::VectorXd targets = Eigen::VectorXd::Zero(samples + dimension);
  for (int t = 0; t < samples; ++t) {
    stacked.row(t) = Eigen::Map<const Eigen::RowVectorXd>(NarrowFeatures(t, dimension).data(), dimension);
    targets(t) = NarrowTarget(t);
  }
  stacked.bottomRows(dimension) = std::sqrt(ridge) * Eigen::MatrixXd::Identity(dimension, dimension);
  return stacked.householderQr().solve(targets);
}

// Relative RMS distance of the model's predictions from the batch
// solution's, on the stream's own inputs.
double DistanceFromBatch(const Rls& rls, const Eigen::VectorXd& batch, int samples) {
  const int dimension = rls.dimension();
  double difference = 0, scale = 0;
  for (int t = 0; t < samples; t += 7) {
    const std::vector<double> z = NarrowFeatures(t, dimension);
    const double expected = batch.dot(Eigen::Map<const Eigen::VectorXd>(z.data(), dimension));
    difference += std::pow(rls.Predict(z) - expected, 2);
    scale += expected * expected;
  }
  return std::sqrt(difference / scale);
}

TEST_CASE("Each precision and ridge picks its form", "[rls][factor]") {
  CHECK(RlsF32(8, 1.0, 1.0).square_root_form());
  CHECK(Rls(8, 1e-7, 1.0).square_root_form());
  CHECK_FALSE(Rls(8, Rls::kSmallestCovarianceRidge, 1.0).square_root_form());
}

TEST_CASE("float64 at a ridge of 1e-12 is the batch ridge solution", "[rls][factor]") {
  constexpr int kDimension = 32, kSamples = 40000;
  constexpr double kRidge = 1e-12;
  Rls rls(kDimension, kRidge, 1.0);
  REQUIRE(rls.square_root_form());
  for (int t = 0; t < kSamples; ++t) {
    REQUIRE(std::isfinite(rls.Learn(NarrowFeatures(t, kDimension), NarrowTarget(t))));
  }
  CHECK(rls.soundness() == Rls::Soundness::kSound);
  CHECK(DistanceFromBatch(rls, BatchRidge(kSamples, kDimension, kRidge), kSamples) < 1e-9);
}

TEST_CASE("A new ridge across the threshold changes the form and stays exact", "[rls][factor]") {
  constexpr int kDimension = 16, kSamples = 3000;
  Rls rls(kDimension, 1e-3, 1.0);
  for (int t = 0; t < kSamples; ++t) rls.Learn(NarrowFeatures(t, kDimension), NarrowTarget(t));
  REQUIRE_FALSE(rls.square_root_form());
  REQUIRE(rls.SetRidge(1e-9).ok());
  CHECK(rls.square_root_form());
  CHECK(rls.ridge() == 1e-9);
  CHECK(DistanceFromBatch(rls, BatchRidge(kSamples, kDimension, 1e-9), kSamples) < 1e-9);
  // It goes on learning in its new form, then back.
  for (int t = kSamples; t < 2 * kSamples; ++t) rls.Learn(NarrowFeatures(t, kDimension), NarrowTarget(t));
  CHECK(DistanceFromBatch(rls, BatchRidge(2 * kSamples, kDimension, 1e-9), 2 * kSamples) < 1e-9);
  REQUIRE(rls.SetRidge(1e-2).ok());
  CHECK_FALSE(rls.square_root_form());
  CHECK(DistanceFromBatch(rls, BatchRidge(2 * kSamples, kDimension, 1e-2), 2 * kSamples) < 1e-9);
}

TEST_CASE("A new ridge needs no forgetting", "[rls][factor][errors]") {
  Rls rls(8, 1e-3, 0.99);
  const absl::Status status = rls.SetRidge(1e-2);
  CHECK(status.code() == absl::StatusCode::kFailedPrecondition);
  CHECK(rls.ridge() == 1e-3);
}

}  // namespace
}  // namespace rffstream
