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

// G = Q T Qᵀ with T tridiagonal: what a candidate's score needs, without
// G's eigenvectors (forming them costs about 8× the reduction itself).
struct TridiagonalForm {
  Eigen::VectorXd diagonal;     // T's, shifted up when rounding left G indefinite
  Eigen::VectorXd subdiagonal;  // T's
  Eigen::VectorXd eigenvalues;  // T's (so G's), after the shift
  Eigen::MatrixXd projected;    // Qᵀ b: D × outputs
};

// (T + rI)⁻¹ c by T + rI = L D Lᵀ (no pivoting: T + rI is positive definite);
// false when rounding says it is not.
bool SolveShifted(const TridiagonalForm& form, double ridge, Eigen::Index output,
                  Eigen::VectorXd& pivots, Eigen::VectorXd& solution) {
  const Eigen::Index d = form.diagonal.size();
  pivots[0] = form.diagonal[0] + ridge;
  solution[0] = form.projected(0, output);
  for (Eigen::Index i = 1; i < d; ++i) {
    if (!(pivots[i - 1] > 0)) return false;
    const double multiplier = form.subdiagonal[i - 1] / pivots[i - 1];
    pivots[i] = form.diagonal[i] + ridge - multiplier * form.subdiagonal[i - 1];
    solution[i] = form.projected(i, output) - multiplier * solution[i - 1];
  }
  if (!(pivots[d - 1] > 0)) return false;
  solution[d - 1] /= pivots[d - 1];
  for (Eigen::Index i = d - 1; i-- > 0;) {
    solution[i] = solution[i] / pivots[i] - form.subdiagonal[i] / pivots[i] * solution[i + 1];
  }
  return true;
}

// GCV at `ridge`; +inf when df >= n or T + rI is not positive definite.
double GcvScore(const TridiagonalForm& form, std::span<const double> target_squares,
                double samples, double ridge) {
  double df = 0;
  for (double s : form.eigenvalues) df += s / (s + ridge);
  if (!(df < samples)) return std::numeric_limits<double>::infinity();
  const Eigen::Index d = form.diagonal.size();
  Eigen::VectorXd pivots(d), x(d);
  double score = 0;
  for (Eigen::Index output = 0; output < form.projected.cols(); ++output) {
    if (!SolveShifted(form, ridge, output, pivots, x)) return std::numeric_limits<double>::infinity();
    // Σ y² − (2 bᵀw − wᵀGw) with w = (G + rI)⁻¹ b, in T's basis: x = Qᵀw.
    double fitted = x[0] * (form.diagonal[0] * x[0]);
    for (Eigen::Index i = 1; i < d; ++i) {
      fitted += x[i] * (form.diagonal[i] * x[i] + 2 * form.subdiagonal[i - 1] * x[i - 1]);
    }
    const double explained = 2 * form.projected.col(output).dot(x) - fitted;
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
  const Eigen::Tridiagonalization<Eigen::MatrixXd> reduction(g);
  TridiagonalForm form{reduction.diagonal(), reduction.subDiagonal(), {}, {}};
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen;
  eigen.computeFromTridiagonal(form.diagonal, form.subdiagonal, Eigen::EigenvaluesOnly);
  if (eigen.info() != Eigen::Success) {
    return absl::InternalError("ridge by GCV: the eigenvalues did not converge");
  }
  // G is positive semidefinite: rounding below zero moves G up to zero.
  const double shift = std::max(-eigen.eigenvalues().minCoeff(), 0.0);
  form.diagonal.array() += shift;
  form.eigenvalues = eigen.eigenvalues().array() + shift;
  const Eigen::Map<const RowMatrix> sums(target_sums.data(), static_cast<Eigen::Index>(outputs), d);
  form.projected = reduction.matrixQ().adjoint() * sums.transpose();
  const auto n = static_cast<double>(samples);
  RidgeChoice choice;
  choice.score = std::numeric_limits<double>::infinity();
  choice.current_score = GcvScore(form, target_squares, n, current_ridge);
  for (double ridge : candidates) {
    const double score = GcvScore(form, target_squares, n, ridge);
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
