// Ridge by generalized cross-validation (rffstream/ridge_by_gcv.h) against
// its definition computed from the data by explicit ridge solves, and
// BasicLearner::SetRidge against a model that learned with the new ridge
// from the start.
#include "rffstream/ridge_by_gcv.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "Eigen/Dense"
#include "rffstream/learner.h"

namespace rffstream {
namespace {

// GCV's definition: the fit with `ridge`, its residuals and the trace of
// its hat matrix Z (ZᵀZ + rI)⁻¹ Zᵀ.
double DefinitionGcv(const Eigen::MatrixXd& z, const Eigen::MatrixXd& y, double ridge) {
  const Eigen::MatrixXd inverse =
      (z.transpose() * z + ridge * Eigen::MatrixXd::Identity(z.cols(), z.cols())).inverse();
  const Eigen::MatrixXd hat = z * inverse * z.transpose();
  const double n = static_cast<double>(z.rows());
  const double df = hat.trace();
  const double rss = (y - hat * y).squaredNorm();
  return n * rss / ((n - df) * (n - df));
}

TEST_CASE("GCV from sufficient statistics equals its definition on the data", "[ridge_by_gcv]") {
  for (const auto& [rows, dimension, outputs] :
       {std::tuple{200, 12, 1}, std::tuple{60, 40, 2}, std::tuple{300, 25, 3},
        std::tuple{30, 40, 2}, std::tuple{50, 1, 1}}) {
    Eigen::MatrixXd z(rows, dimension), y(rows, outputs);
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < dimension; ++j) z(i, j) = std::cos(0.37 * i * (j + 1) + 0.5 * j);
      for (int k = 0; k < outputs; ++k) {
        y(i, k) = std::sin(0.05 * i * (k + 1)) + 0.3 * std::cos(7.1 * i + k);
      }
    }
    const Eigen::Matrix<double, -1, -1, Eigen::RowMajor> gram = z.transpose() * z;
    const Eigen::Matrix<double, -1, -1, Eigen::RowMajor> sums = (z.transpose() * y).transpose();
    std::vector<double> squares;
    for (int k = 0; k < outputs; ++k) squares.push_back(y.col(k).squaredNorm());
    const std::vector<double> candidates = {1e-4, 1e-3, 1e-2, 0.1, 1, 10};
    double best = std::numeric_limits<double>::infinity(), best_ridge = 0;
    for (double ridge : candidates) {
      double score = 0;
      for (int k = 0; k < outputs; ++k) score += DefinitionGcv(z, y.col(k), ridge);
      if (score < best) {
        best = score;
        best_ridge = ridge;
      }
    }
    absl::StatusOr<RidgeChoice> choice = ChooseRidgeByGcv(
        std::span<const double>(gram.data(), gram.size()),
        std::span<const double>(sums.data(), sums.size()), squares, rows, 0.1, candidates);
    REQUIRE(choice.ok());
    INFO(rows << " x " << dimension << ", " << outputs << " outputs");
    // With fewer rows than features a small ridge all but interpolates:
    // n − df is a difference of nearly equal numbers, which both ways of
    // computing it know to about ε D / (n − df).
    const double tolerance = rows > dimension ? 1e-8 : 1e-6;
    CHECK(choice->ridge == best_ridge);
    CHECK(choice->score == Approx(best).epsilon(tolerance));
    double current = 0;
    for (int k = 0; k < outputs; ++k) current += DefinitionGcv(z, y.col(k), 0.1);
    CHECK(choice->current_score == Approx(current).epsilon(tolerance));
    // The least regularized cost at the chosen ridge, RSS + r‖w‖² (what an
    // RLS model's noise sums hold) ...
    const auto cost = [&](double ridge, int k) {
      const Eigen::VectorXd w =
          (z.transpose() * z + ridge * Eigen::MatrixXd::Identity(z.cols(), z.cols()))
              .ldlt()
              .solve(z.transpose() * y.col(k));
      return (y.col(k) - z * w).squaredNorm() + ridge * w.squaredNorm();
    };
    REQUIRE(choice->regularized_costs.size() == static_cast<std::size_t>(outputs));
    std::vector<double> current_costs, wrong_costs;
    for (int k = 0; k < outputs; ++k) {
      CHECK(choice->regularized_costs[k] == Approx(cost(best_ridge, k)).epsilon(tolerance));
      current_costs.push_back(cost(0.1, k));
      wrong_costs.push_back(2 * cost(0.1, k) + 1);
    }
    // ... and the model's costs at the current ridge as the residuals'
    // anchor: the same choice; costs that disagree with Σ y² are not used.
    for (const std::vector<double>& costs : {current_costs, wrong_costs}) {
      absl::StatusOr<RidgeChoice> anchored = ChooseRidgeByGcv(
          std::span<const double>(gram.data(), gram.size()),
          std::span<const double>(sums.data(), sums.size()), squares, rows, 0.1, candidates, costs);
      REQUIRE(anchored.ok());
      CHECK(anchored->ridge == best_ridge);
      CHECK(anchored->score == Approx(best).epsilon(tolerance));
    }
  }
}

TEST_CASE("GCV refuses what it cannot judge", "[ridge_by_gcv][errors]") {
  const std::vector<double> gram = {1, 0, 0, 1}, sums = {1, 1}, squares = {2};
  const std::vector<double> candidates = RidgeCandidates();
  CHECK(candidates.front() == Approx(1e-6));
  CHECK(candidates.back() == Approx(10));
  CHECK(absl::IsFailedPrecondition(
      ChooseRidgeByGcv(gram, sums, squares, 1, 0.1, candidates).status()));
  CHECK(absl::IsInvalidArgument(
      ChooseRidgeByGcv(std::vector<double>{1, 0, 0}, sums, squares, 10, 0.1, candidates).status()));
  const std::vector<double> bad = {1, 0, 0, NAN};
  CHECK(absl::IsInvalidArgument(ChooseRidgeByGcv(bad, sums, squares, 10, 0.1, candidates).status()));
}

TEST_CASE("A new ridge equals learning with it from the start", "[ridge_by_gcv][learner]") {
  LearnerConfig config;
  config.features.input_dimension = 2;
  config.features.num_features = 48;
  config.features.gamma = 0.7;
  config.ridge = 0.5;
  absl::StatusOr<Learner> changed = Learner::Create(config);
  config.ridge = 1e-3;
  absl::StatusOr<Learner> fresh = Learner::Create(config);
  REQUIRE(changed.ok());
  REQUIRE(fresh.ok());
  for (int t = 0; t < 300; ++t) {
    const std::vector<double> x = {std::sin(0.3 * t), std::cos(0.17 * t)};
    const double y = std::sin(2 * x[0]) * x[1];
    changed->Learn(x, y);
    fresh->Learn(x, y);
  }
  REQUIRE(changed->SetRidge(1e-3).ok());
  CHECK(changed->config().ridge == 1e-3);
  for (std::size_t i = 0; i < fresh->weights().size(); ++i) {
    CHECK(changed->weights()[i] == Approx(fresh->weights()[i]).margin(1e-9));
  }
  // Forgetting's prior is not λI any more: refused, the model unchanged.
  config.forgetting = 0.99;
  absl::StatusOr<Learner> forgetting = Learner::Create(config);
  REQUIRE(forgetting.ok());
  CHECK(absl::IsFailedPrecondition(forgetting->SetRidge(0.1)));
  CHECK(forgetting->config().ridge == 1e-3);
  CHECK(absl::IsFailedPrecondition(fresh->SetRidge(0)));
}

}  // namespace
}  // namespace rffstream
