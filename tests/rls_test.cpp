#include "rffstream/rls.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "Eigen/Dense"

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

}  // namespace
}  // namespace rffstream
