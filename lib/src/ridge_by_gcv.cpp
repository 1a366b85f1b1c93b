#include "rffstream/ridge_by_gcv.h"

#include <cmath>
#include <limits>

#include "Eigen/Dense"
#include "absl/strings/str_cat.h"

namespace rffstream {
namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

bool AllFinite(std::span<const double> values) {
  for (double value : values) {
    if (!std::isfinite(value)) return false;
  }
  return true;
}

// GCV at `ridge` from G's eigenvalues and the targets' sums in its
// eigenvectors' basis (projected: D × outputs); +inf when df >= n.
double GcvScore(const Eigen::VectorXd& eigenvalues, const Eigen::MatrixXd& projected,
                std::span<const double> target_squares, double samples, double ridge) {
  double df = 0;
  for (Eigen::Index i = 0; i < eigenvalues.size(); ++i) df += eigenvalues[i] / (eigenvalues[i] + ridge);
  if (!(df < samples)) return std::numeric_limits<double>::infinity();
  double score = 0;
  for (Eigen::Index output = 0; output < projected.cols(); ++output) {
    // Σ y² − Σ_i b_i² (s_i + 2r) / (s_i + r)², in G's eigenbasis.
    double explained = 0;
    for (Eigen::Index i = 0; i < eigenvalues.size(); ++i) {
      const double s = eigenvalues[i], b = projected(i, output);
      explained += b * b * (s + 2 * ridge) / ((s + ridge) * (s + ridge));
    }
    const double residual = std::max(target_squares[static_cast<std::size_t>(output)] - explained, 0.0);
    score += samples * residual / ((samples - df) * (samples - df));
  }
  return score;
}

}  // namespace

std::vector<double> RidgeCandidates() {
  std::vector<double> ridges;
  // Below 1e-6 the information form, recovered from P, is too coarse for
  // the scores (off by a few % at 1e-7 and 10⁵ samples).
  for (int step = -12; step <= 2; ++step) ridges.push_back(std::pow(10.0, step / 2.0));
  return ridges;
}

absl::StatusOr<RidgeChoice> ChooseRidgeByGcv(std::span<const double> gram,
                                             std::span<const double> target_sums,
                                             std::span<const double> target_squares,
                                             std::int64_t samples, double current_ridge,
                                             std::span<const double> candidates) {
  const auto dimension = static_cast<std::size_t>(std::llround(std::sqrt(gram.size())));
  const std::size_t outputs = target_squares.size();
  if (dimension == 0 || dimension * dimension != gram.size() || outputs == 0 ||
      target_sums.size() != dimension * outputs) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ridge by GCV: ", gram.size(), " Gram entries, ", target_sums.size(), " target sums and ",
        outputs, " outputs do not fit one model"));
  }
  if (samples < 2) {
    return absl::FailedPreconditionError(
        absl::StrCat("ridge by GCV: needs at least 2 samples, got ", samples));
  }
  if (!AllFinite(gram) || !AllFinite(target_sums) || !AllFinite(target_squares) ||
      !(current_ridge > 0)) {
    return absl::InvalidArgumentError("ridge by GCV: a number is not finite (or the ridge not positive)");
  }
  const auto d = static_cast<Eigen::Index>(dimension);
  const Eigen::Map<const RowMatrix> g(gram.data(), d, d);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(g);
  if (eigen.info() != Eigen::Success) {
    return absl::InternalError("ridge by GCV: the eigendecomposition did not converge");
  }
  // G is positive semidefinite: rounding below zero is zero.
  const Eigen::VectorXd eigenvalues = eigen.eigenvalues().cwiseMax(0.0);
  const Eigen::Map<const RowMatrix> sums(target_sums.data(), static_cast<Eigen::Index>(outputs), d);
  const Eigen::MatrixXd projected = eigen.eigenvectors().transpose() * sums.transpose();
  const auto n = static_cast<double>(samples);
  RidgeChoice choice;
  choice.score = std::numeric_limits<double>::infinity();
  choice.current_score = GcvScore(eigenvalues, projected, target_squares, n, current_ridge);
  for (double ridge : candidates) {
    const double score = GcvScore(eigenvalues, projected, target_squares, n, ridge);
    if (score < choice.score) {
      choice.score = score;
      choice.ridge = ridge;
    }
  }
  if (!std::isfinite(choice.score)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "ridge by GCV: every candidate fits as many degrees of freedom as the ", samples,
        " samples"));
  }
  return choice;
}

}  // namespace rffstream
