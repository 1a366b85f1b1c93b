#include "rffstream/ridge_by_gcv.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

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

// G = Q T Qᵀ with T tridiagonal: all a candidate's score needs, in O(D)
// a candidate and output, without G's eigenvalues or eigenvectors.
struct TridiagonalForm {
  Eigen::VectorXd diagonal;     // T's
  Eigen::VectorXd subdiagonal;  // T's
  Eigen::MatrixXd projected;    // Qᵀ b: D × outputs
};

// The pivots of T + rI = L D Lᵀ from the top, and of the same from the
// bottom; false when one is not positive (rounding left T + rI indefinite:
// a candidate far below G's rounding, not scored).
bool ShiftedPivots(const TridiagonalForm& form, double ridge, Eigen::VectorXd& from_top,
                   Eigen::VectorXd& from_bottom) {
  const Eigen::Index d = form.diagonal.size();
  from_top[0] = form.diagonal[0] + ridge;
  for (Eigen::Index i = 1; i < d; ++i) {
    if (!(from_top[i - 1] > 0)) return false;
    const double off = form.subdiagonal[i - 1];
    from_top[i] = form.diagonal[i] + ridge - off * off / from_top[i - 1];
  }
  from_bottom[d - 1] = form.diagonal[d - 1] + ridge;
  for (Eigen::Index i = d - 1; i-- > 0;) {
    const double off = form.subdiagonal[i];
    from_bottom[i] = form.diagonal[i] + ridge - off * off / from_bottom[i + 1];
  }
  return from_top[d - 1] > 0 && (from_bottom.array() > 0).all();
}

// df = tr(G (G + rI)⁻¹) = D − r tr((T + rI)⁻¹), whose diagonal entries are
// 1 / (top pivot + bottom pivot − the diagonal entry) (the twisted
// factorizations of a tridiagonal matrix).
double DegreesOfFreedom(const TridiagonalForm& form, double ridge,
                        const Eigen::VectorXd& from_top, const Eigen::VectorXd& from_bottom) {
  double trace = 0;
  for (Eigen::Index i = 0; i < form.diagonal.size(); ++i) {
    trace += 1 / (from_top[i] + from_bottom[i] - (form.diagonal[i] + ridge));
  }
  return static_cast<double>(form.diagonal.size()) - ridge * trace;
}

// x = (T + rI)⁻¹ c for one output's c = Qᵀb, with the pivots from the top.
void SolveShifted(const TridiagonalForm& form, const Eigen::VectorXd& from_top,
                  Eigen::Index output, Eigen::VectorXd& x) {
  const Eigen::Index d = form.diagonal.size();
  x[0] = form.projected(0, output);
  for (Eigen::Index i = 1; i < d; ++i) {
    x[i] = form.projected(i, output) - form.subdiagonal[i - 1] / from_top[i - 1] * x[i - 1];
  }
  x[d - 1] /= from_top[d - 1];
  for (Eigen::Index i = d - 1; i-- > 0;) {
    x[i] = (x[i] - form.subdiagonal[i] * x[i + 1]) / from_top[i];
  }
}

// The fit at one ridge r: df, and per output 2bᵀw − wᵀGw (the part of
// Σ y² it explains) and ‖w‖², with w = (G + rI)⁻¹ b; none when T + rI is
// not positive definite as rounded.
struct Fit {
  double df = 0;
  std::vector<double> explained;
  std::vector<double> squared_norms;
};

std::optional<Fit> FitAt(const TridiagonalForm& form, double ridge) {
  const Eigen::Index d = form.diagonal.size();
  Eigen::VectorXd from_top(d), from_bottom(d), x(d);
  if (!ShiftedPivots(form, ridge, from_top, from_bottom)) return std::nullopt;
  Fit fit;
  fit.df = DegreesOfFreedom(form, ridge, from_top, from_bottom);
  for (Eigen::Index output = 0; output < form.projected.cols(); ++output) {
    SolveShifted(form, from_top, output, x);
    // In T's basis: x = Qᵀw, so ‖w‖ = ‖x‖.
    double fitted = x[0] * (form.diagonal[0] * x[0]);
    for (Eigen::Index i = 1; i < d; ++i) {
      fitted += x[i] * (form.diagonal[i] * x[i] + 2 * form.subdiagonal[i - 1] * x[i - 1]);
    }
    fit.explained.push_back(2 * form.projected.col(output).dot(x) - fitted);
    fit.squared_norms.push_back(x.squaredNorm());
  }
  return fit;
}

// GCV of `fit` (+inf when df >= n or there is none), each output's RSS
// `totals` − its explained part.
double GcvScore(const std::optional<Fit>& fit, std::span<const double> totals, double samples) {
  if (!fit.has_value() || !(fit->df < samples)) return std::numeric_limits<double>::infinity();
  double score = 0;
  for (std::size_t output = 0; output < totals.size(); ++output) {
    const double residual = std::max(totals[output] - fit->explained[output], 0.0);
    score += samples * residual / ((samples - fit->df) * (samples - fit->df));
  }
  return score;
}

// What each output's RSS is taken from: Σ y², or the model's costs at the
// current ridge plus the part its fit explains, when the two agree to
// within the rounding that Σ y² − explained carries (kAgreement Σ y²).
std::vector<double> ResidualTotals(std::span<const double> target_squares,
                                   std::span<const double> current_costs,
                                   const std::optional<Fit>& current, double current_ridge) {
  constexpr double kAgreement = 1e-4;
  std::vector<double> totals(target_squares.begin(), target_squares.end());
  if (current_costs.size() != totals.size() || !current.has_value()) return totals;
  for (std::size_t output = 0; output < totals.size(); ++output) {
    const double residual = current_costs[output] - current_ridge * current->squared_norms[output];
    const double direct = target_squares[output] - current->explained[output];
    if (residual >= 0 && std::abs(residual - direct) <= kAgreement * target_squares[output]) {
      totals[output] = residual + current->explained[output];
    }
  }
  return totals;
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
                                             std::span<const double> candidates,
                                             std::span<const double> current_costs) {
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
      !AllFinite(current_costs) || !(current_ridge > 0)) {
    return absl::InvalidArgumentError("ridge by GCV: a number is not finite (or the ridge not positive)");
  }
  const auto d = static_cast<Eigen::Index>(dimension);
  const Eigen::Map<const RowMatrix> g(gram.data(), d, d);
  const Eigen::Tridiagonalization<Eigen::MatrixXd> reduction(g);
  TridiagonalForm form{reduction.diagonal(), reduction.subDiagonal(), {}};
  const Eigen::Map<const RowMatrix> sums(target_sums.data(), static_cast<Eigen::Index>(outputs), d);
  form.projected = reduction.matrixQ().adjoint() * sums.transpose();
  const auto n = static_cast<double>(samples);
  const std::optional<Fit> current = FitAt(form, current_ridge);
  const std::vector<double> totals =
      ResidualTotals(target_squares, current_costs, current, current_ridge);
  RidgeChoice choice;
  choice.score = std::numeric_limits<double>::infinity();
  choice.current_score = GcvScore(current, totals, n);
  std::optional<Fit> chosen;
  for (double ridge : candidates) {
    std::optional<Fit> fit = FitAt(form, ridge);
    const double score = GcvScore(fit, totals, n);
    if (score < choice.score) {
      choice.score = score;
      choice.ridge = ridge;
      chosen = std::move(fit);
    }
  }
  for (std::size_t output = 0; chosen.has_value() && output < outputs; ++output) {
    choice.regularized_costs.push_back(std::max(totals[output] - chosen->explained[output], 0.0) +
                                       choice.ridge * chosen->squared_norms[output]);
  }
  if (!std::isfinite(choice.score)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "ridge by GCV: every candidate fits as many degrees of freedom as the ", samples,
        " samples"));
  }
  return choice;
}

}  // namespace rffstream
