// BasicRls's P seen whole: zᵀPz, P as a matrix, and the information form
// A = P⁻¹ and b = A w, the sufficient statistics that models learned on
// disjoint samples add up in. The O(D³) inversions run on this CPU's SIMD
// kernels (SolvePositiveDefinite).
#include <algorithm>
#include <cmath>
#include <span>
#include <utility>
#include <vector>

#include "Eigen/Dense"
#include "absl/strings/str_cat.h"
#include "internal/information_square_root.h"
#include "internal/information_update.h"
#include "internal/safe_bounds.h"
#include "internal/simd_kernels.h"
#include "rffstream/rls.h"

namespace rffstream {
namespace {

// Σ_j matrix[i][j] · vector[j] for a dimension × dimension row-major matrix.
template <class Vector>
void MultiplyInto(const std::vector<double>& matrix, const Vector* vector, int dimension,
                  double* result) {
  const auto n = static_cast<std::size_t>(dimension);
  for (std::size_t i = 0; i < n; ++i) {
    double sum = 0;
    for (std::size_t j = 0; j < n; ++j) sum += matrix[i * n + j] * static_cast<double>(vector[j]);
    result[i] = sum;
  }
}

}  // namespace

template <class Real>
Real BasicRls<Real>::CovarianceQuadraticForm(std::span<const Real> z) const {
  if (!information_factor_.empty()) {
    return internal::InformationQuadraticForm(information_factor_.data(), stride_, dimension_, z.data());
  }
  if (factor_form_) return FactorQuadraticForm(z);
  using RowMatrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Vector = Eigen::Matrix<Real, Eigen::Dynamic, 1>;
  const Eigen::Map<const RowMatrix, 0, Eigen::OuterStride<>> stored(
      covariance_.data(), dimension_, dimension_, Eigen::OuterStride<>(stride_));
  const Eigen::Map<const Vector> x(z.data(), dimension_);
  // zᵀPz from the upper triangle, row by row: Σ_i z_i (P_ii z_i + 2 Σ_{j>i}
  // P_ij z_j). (A selfadjointView product would allocate its temporary.)
  Real stored_form = 0;
  for (int i = 0; i < dimension_; ++i) {
    const int rest = dimension_ - i - 1;
    const Real off_diagonal = stored.row(i).segment(i + 1, rest).dot(x.segment(i + 1, rest));
    stored_form += x[i] * (stored(i, i) * x[i] + 2 * off_diagonal);
  }
  const Real along_gain = x.dot(Eigen::Map<const Vector>(gain_.data(), dimension_));
  const Real along_refresh = x.dot(Eigen::Map<const Vector>(refresh_gain_.data(), dimension_));
  return pending_scale_ * stored_form - pending_gain_weight_ * along_gain * along_gain -
         pending_refresh_weight_ * along_refresh * along_refresh;
}

template <class Real>
std::vector<Real> BasicRls<Real>::CovarianceMatrix() const {
  if (!information_factor_.empty()) return Settled().CovarianceMatrix();
  if (factor_form_) return FactorCovarianceMatrix();
  std::vector<Real> full(static_cast<std::size_t>(dimension_) * dimension_);
  for (int i = 0; i < dimension_; ++i) {
    for (int j = i; j < dimension_; ++j) {
      const Real value = pending_scale_ * Stored(i, j) - pending_gain_weight_ * gain_[i] * gain_[j] -
                         pending_refresh_weight_ * refresh_gain_[i] * refresh_gain_[j];
      full[static_cast<std::size_t>(i) * dimension_ + j] = value;
      full[static_cast<std::size_t>(j) * dimension_ + i] = value;
    }
  }
  return full;
}

template <class Real>
absl::StatusOr<typename BasicRls<Real>::InformationForm> BasicRls<Real>::ToInformationForm() const {
  const auto n = static_cast<std::size_t>(dimension_);
  InformationForm form;
  if (factor_form_) {
    // A = Qᵀ Q, the Gram matrix of Q's rows, for Q the square root of A:
    // the one bulk blocks or a merge left, else D^(-1/2) L⁻¹ from the
    // factors themselves (inverting P = L D Lᵀ would square the condition
    // number the factor form keeps in L). In double, with two D × D arrays.
    std::vector<double> rows(n * n, 0.0);  // Q, row-major
    if (!information_factor_.empty()) {
      for (std::size_t j = 0; j < n; ++j) {
        for (std::size_t i = j; i < n; ++i) rows[i * n + j] = information_factor_[j * stride_ + i];
      }
    } else {
      for (std::size_t j = 0; j < n; ++j) {  // L column-major, inverted where it is
        for (std::size_t i = j; i < n; ++i) rows[j * n + i] = Row(static_cast<int>(j))[i];
      }
      internal::InvertLowerTriangular(rows.data(), dimension_);
      for (std::size_t i = 0; i < n; ++i) {
        const double scale = 1.0 / std::sqrt(static_cast<double>(factor_scales_[i]));
        for (std::size_t j = 0; j < i; ++j) std::swap(rows[i * n + j], rows[j * n + i]);
        for (std::size_t j = 0; j <= i; ++j) rows[i * n + j] *= scale;
      }
    }
    form.information.assign(n * n, 0.0);
    internal::ActiveSimdKernelTable().add_block_gram_double(form.information.data(), dimension_,
                                                             rows.data(), dimension_);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < i; ++j) form.information[j * n + i] = form.information[i * n + j];
    }
    if (!std::all_of(form.information.begin(), form.information.end(),
                     [](double value) { return std::isfinite(value); })) {
      return absl::FailedPreconditionError("RLS: the factor of P has no finite inverse");
    }
  } else {
    const std::vector<Real> covariance = CovarianceMatrix();
    const std::vector<double> p(covariance.begin(), covariance.end());
    form.information.resize(p.size());
    if (!internal::ActiveSimdKernelTable().solve_positive_definite(
            p.data(), dimension_, form.information.data(), nullptr, 0)) {
      return absl::FailedPreconditionError("RLS: P is not positive definite, so it has no inverse");
    }
    // A is symmetric; the solve's rounding is not: keep the mean of the two.
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = i + 1; j < n; ++j) {
        const double mean = 0.5 * (form.information[i * n + j] + form.information[j * n + i]);
        form.information[i * n + j] = form.information[j * n + i] = mean;
      }
    }
  }
  form.target_sums.resize(weights_.size());
  for (int output = 0; output < num_outputs_; ++output) {
    MultiplyInto(form.information, weights(output).data(), dimension_,
                 form.target_sums.data() + static_cast<std::size_t>(output) * n);
  }
  form.noise_sums.assign(noise_sums_.begin(), noise_sums_.end());
  form.noise_weight = noise_weight_;
  form.next_refreshed_coordinate = next_refreshed_coordinate_;
  return form;
}

template <class Real>
absl::Status BasicRls<Real>::SetInformationForm(const InformationForm& form) {
  const auto n = static_cast<std::size_t>(dimension_);
  if (form.information.size() != n * n || form.target_sums.size() != n * num_outputs_ ||
      form.noise_sums.size() != static_cast<std::size_t>(num_outputs_) ||
      (!form.target_squares.empty() &&
       form.target_squares.size() != static_cast<std::size_t>(num_outputs_))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "RLS: an information form of ", form.information.size(), " + ", form.target_sums.size(),
        " numbers does not fit ", dimension_, " features and ", num_outputs_, " outputs"));
  }
  std::vector<double> w = form.target_sums;  // solved in place: w = A⁻¹ b
  // The factor form with β = 1 takes the form as a bulk block leaves it,
  // the square root of A, by one Cholesky factorization (D³/3); L and D are
  // made from it only when something needs them (SettleInformationFactor).
  // A merge that is only predicted with until the next never needs them.
  std::vector<double> p;
  AlignedVector<Real> information_factor;
  std::vector<double> explained;  // bᵀw of each output
  if (factor_form_ && forgetting_ == Real{1}) {
    if (!internal::FactorInformation(form.information, dimension_, num_outputs_, stride_, w,
                           information_factor, explained)) {
      return absl::FailedPreconditionError(
          "RLS: the information matrix is not positive definite, or its factor out of range");
    }
  } else {
    p.resize(n * n);
    if (!internal::ActiveSimdKernelTable().solve_positive_definite(
            form.information.data(), dimension_, p.data(), w.data(), num_outputs_)) {
      return absl::FailedPreconditionError(
          "RLS: the information matrix is not positive definite, or its inverse not finite");
    }
  }
  std::vector<double> noise_sums = form.noise_sums;
  if (!form.target_squares.empty()) {
    if (explained.empty()) {  // the covariance form's: from b and w
      for (std::size_t output = 0; output < noise_sums.size(); ++output) {
        double product = 0;
        for (std::size_t i = 0; i < n; ++i) product += form.target_sums[output * n + i] * w[output * n + i];
        explained.push_back(product);
      }
    }
    for (std::size_t output = 0; output < noise_sums.size(); ++output) {
      // Rounding can take a perfect fit's cost just below zero.
      noise_sums[output] = std::max(0.0, form.target_squares[output] - explained[output]);
    }
  }
  for (const double value : w) {
    if (!std::isfinite(value) || !std::isfinite(form.noise_weight)) {
      return absl::FailedPreconditionError("RLS: the information form gives a state that is not finite");
    }
  }
  for (const double value : noise_sums) {
    if (!(std::abs(value) < internal::kSafeBound<Real>)) {
      return absl::FailedPreconditionError("RLS: the information form's noise sums are not finite");
    }
  }
  if (!information_factor.empty()) {
    // L and D are made from Q when settled (an engine coming from the
    // covariance form has no D yet).
    factor_scales_.resize(n, Real{1});
  } else if (factor_form_) {
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = i + 1; j < n; ++j) p[i * n + j] = p[j * n + i] = 0.5 * (p[i * n + j] + p[j * n + i]);
    }
    const AlignedVector<Real> kept = covariance_;
    if (!SetFactorFromCovariance(p)) {
      covariance_ = kept;  // D is set only on success
      return absl::FailedPreconditionError(
          absl::StrCat("RLS: the inverse of the information matrix has no float", 8 * sizeof(Real), " Cholesky factor"));
    }
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = i; j < n; ++j) {
        Row(static_cast<int>(i))[j] = static_cast<Real>(0.5 * (p[i * n + j] + p[j * n + i]));
      }
    }
  }
  information_factor_ = std::move(information_factor);  // replaced, not settled
  block_factor_ = AlignedVector<Real>();
  pending_scale_ = 1;
  pending_gain_weight_ = 0;
  pending_refresh_weight_ = 0;
  std::fill(gain_.begin(), gain_.end(), Real{0});
  std::fill(refresh_gain_.begin(), refresh_gain_.end(), Real{0});
  for (std::size_t i = 0; i < w.size(); ++i) weights_[i] = static_cast<Real>(w[i]);
  for (int output = 0; output < num_outputs_; ++output) {
    noise_sums_[output] = static_cast<Real>(noise_sums[output]);
  }
  noise_weight_ = static_cast<Real>(form.noise_weight);
  next_refreshed_coordinate_ = form.next_refreshed_coordinate % dimension_;
  return absl::OkStatus();
}

template <class Real>
absl::Status BasicRls<Real>::SetInformationForm(const InformationForm& form, double ridge) {
  if (forgetting_ != Real{1}) {
    return absl::FailedPreconditionError(
        "RLS: a new ridge needs a forgetting factor of 1 (the prior is λI only then)");
  }
  const bool kept_form = factor_form_;
  factor_form_ = UsesSquareRootForm(ridge);
  if (absl::Status set = SetInformationForm(form); !set.ok()) {
    factor_form_ = kept_form;
    return set;
  }
  ridge_ = ridge;
  return absl::OkStatus();
}

template <class Real>
absl::Status BasicRls<Real>::SetRidge(double ridge) {
  absl::StatusOr<InformationForm> form = ToInformationForm();
  if (!form.ok()) return form.status();
  const auto n = static_cast<std::size_t>(dimension_);
  for (std::size_t i = 0; i < n; ++i) form->information[i * n + i] += ridge - ridge_;
  return SetInformationForm(*form, ridge);
}

template float BasicRls<float>::CovarianceQuadraticForm(std::span<const float>) const;
template double BasicRls<double>::CovarianceQuadraticForm(std::span<const double>) const;
template std::vector<float> BasicRls<float>::CovarianceMatrix() const;
template std::vector<double> BasicRls<double>::CovarianceMatrix() const;
template absl::StatusOr<BasicRls<float>::InformationForm> BasicRls<float>::ToInformationForm() const;
template absl::StatusOr<BasicRls<double>::InformationForm> BasicRls<double>::ToInformationForm() const;
template absl::Status BasicRls<float>::SetInformationForm(const InformationForm&);
template absl::Status BasicRls<double>::SetInformationForm(const InformationForm&);
template absl::Status BasicRls<float>::SetInformationForm(const InformationForm&, double);
template absl::Status BasicRls<double>::SetInformationForm(const InformationForm&, double);
template absl::Status BasicRls<float>::SetRidge(double);
template absl::Status BasicRls<double>::SetRidge(double);

}  // namespace rffstream
