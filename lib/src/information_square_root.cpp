// The square root of a state given whole (internal/information_square_root.h)
// and the part of Σ y² its ridge solution explains (rls_information_form.h).
#include "internal/information_square_root.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "Eigen/Dense"
#include "absl/strings/str_cat.h"
#include "internal/information_update.h"
#include "internal/safe_bounds.h"
#include "rffstream/rls_information_form.h"

namespace rffstream {
namespace internal {

template <class Real>
bool FactorInformation(const std::vector<double>& information, int dimension, int outputs,
                       std::size_t stride, std::vector<double>& w, AlignedVector<Real>& factor,
                       std::vector<double>& explained) {
  const Eigen::Index n = dimension;
  const auto reversed_at = [n](Eigen::Index i) { return n - 1 - i; };
  Eigen::MatrixXd reversed(n, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    for (Eigen::Index i = j; i < n; ++i) {
      reversed(i, j) = information[static_cast<std::size_t>(reversed_at(i) * n + reversed_at(j))];
    }
  }
  if (!internal::CholeskyLower(reversed.data(), dimension)) return false;
  const Eigen::MatrixXd& factored = reversed;  // L̃ in its lower triangle
  const auto d = static_cast<std::size_t>(dimension);
  factor.assign((d + static_cast<std::size_t>(outputs)) * stride, Real{0});
  for (Eigen::Index j = 0; j < n; ++j) {
    const double diagonal = reversed(reversed_at(j), reversed_at(j));
    if (!internal::SafeInformationDiagonal<Real>(diagonal)) return false;
    for (Eigen::Index i = j; i < n; ++i) {
      factor[static_cast<std::size_t>(j) * stride + static_cast<std::size_t>(i)] =
          static_cast<Real>(reversed(reversed_at(j), reversed_at(i)));
    }
  }
  explained.assign(static_cast<std::size_t>(outputs), 0.0);
  Eigen::VectorXd solved(n);
  for (int o = 0; o < outputs; ++o) {
    double* weights = w.data() + static_cast<std::size_t>(o) * d;
    for (Eigen::Index i = 0; i < n; ++i) solved(i) = weights[reversed_at(i)];
    factored.triangularView<Eigen::Lower>().solveInPlace(solved);
    Real* rotated = factor.data() + (d + static_cast<std::size_t>(o)) * stride;
    for (Eigen::Index i = 0; i < n; ++i) rotated[i] = static_cast<Real>(solved(reversed_at(i)));
    explained[static_cast<std::size_t>(o)] = solved.squaredNorm();
    factored.transpose().triangularView<Eigen::Upper>().solveInPlace(solved);
    for (Eigen::Index i = 0; i < n; ++i) weights[i] = solved(reversed_at(i));
  }
  return std::all_of(factor.begin(), factor.end(), [](Real value) { return std::isfinite(value); });
}

template bool FactorInformation(const std::vector<double>&, int, int, std::size_t,
                                std::vector<double>&, AlignedVector<float>&, std::vector<double>&);
template bool FactorInformation(const std::vector<double>&, int, int, std::size_t,
                                std::vector<double>&, AlignedVector<double>&, std::vector<double>&);

}  // namespace internal

absl::StatusOr<std::vector<double>> ExplainedSquares(const RlsInformationForm& form) {
  const auto n = static_cast<Eigen::Index>(std::llround(std::sqrt(form.information.size())));
  const auto outputs = n > 0 ? static_cast<Eigen::Index>(form.target_sums.size()) / n : 0;
  if (n == 0 || n * n != static_cast<Eigen::Index>(form.information.size()) ||
      outputs * n != static_cast<Eigen::Index>(form.target_sums.size())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "RLS: an information form of ", form.information.size(), " + ", form.target_sums.size(),
        " numbers is not a square matrix and runs of its dimension"));
  }
  Eigen::MatrixXd lower = Eigen::Map<const Eigen::MatrixXd>(form.information.data(), n, n);
  if (!internal::CholeskyLower(lower.data(), static_cast<int>(n))) {
    return absl::FailedPreconditionError("RLS: the information matrix is not positive definite");
  }
  std::vector<double> explained;
  for (Eigen::Index o = 0; o < outputs; ++o) {
    Eigen::VectorXd solved = Eigen::Map<const Eigen::VectorXd>(form.target_sums.data() + o * n, n);
    std::as_const(lower).triangularView<Eigen::Lower>().solveInPlace(solved);
    explained.push_back(solved.squaredNorm());
  }
  return explained;
}

}  // namespace rffstream
