// BasicRls in information form: A = P⁻¹ and b = A w, the sufficient
// statistics that models learned on disjoint samples add up in.
#include <cmath>

#include "Eigen/Dense"
#include "absl/strings/str_cat.h"
#include "rffstream/rls.h"

namespace rffstream {
namespace {

using Matrix = Eigen::MatrixXd;
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace

template <class Real>
absl::StatusOr<typename BasicRls<Real>::InformationForm> BasicRls<Real>::ToInformationForm() const {
  const std::vector<Real> covariance = CovarianceMatrix();
  const Matrix p = Eigen::Map<const Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>>(
                       covariance.data(), dimension_, dimension_)
                       .template cast<double>();
  const Eigen::LLT<Matrix> cholesky(p);
  if (cholesky.info() != Eigen::Success) {
    return absl::FailedPreconditionError("RLS: P is not positive definite, so it has no inverse");
  }
  InformationForm form;
  form.information.resize(static_cast<std::size_t>(dimension_) * dimension_);
  Eigen::Map<RowMatrix> information(form.information.data(), dimension_, dimension_);
  information = cholesky.solve(Matrix::Identity(dimension_, dimension_));
  // A is symmetric; the solve's rounding is not: keep the mean of the two.
  information = (0.5 * (information + information.transpose())).eval();
  form.target_sums.resize(weights_.size());
  for (int output = 0; output < num_outputs_; ++output) {
    const Eigen::VectorXd w = Eigen::Map<const Eigen::Matrix<Real, Eigen::Dynamic, 1>>(
                                  weights(output).data(), dimension_)
                                  .template cast<double>();
    Eigen::Map<Eigen::VectorXd>(form.target_sums.data() + static_cast<std::size_t>(output) * dimension_,
                                dimension_) = information * w;
  }
  form.noise_sums.assign(noise_sums_.begin(), noise_sums_.end());
  form.noise_weight = noise_weight_;
  return form;
}

template <class Real>
absl::Status BasicRls<Real>::SetInformationForm(const InformationForm& form) {
  const auto dimension = static_cast<std::size_t>(dimension_);
  if (form.information.size() != dimension * dimension ||
      form.target_sums.size() != dimension * num_outputs_ ||
      form.noise_sums.size() != static_cast<std::size_t>(num_outputs_)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "RLS: an information form of ", form.information.size(), " + ", form.target_sums.size(),
        " numbers does not fit ", dimension_, " features and ", num_outputs_, " outputs"));
  }
  const Eigen::Map<const RowMatrix> information(form.information.data(), dimension_, dimension_);
  const Eigen::LLT<Matrix> cholesky(information);
  if (cholesky.info() != Eigen::Success) {
    return absl::FailedPreconditionError("RLS: the information matrix is not positive definite");
  }
  const Matrix p = cholesky.solve(Matrix::Identity(dimension_, dimension_));
  const Eigen::Map<const RowMatrix> target_sums(form.target_sums.data(), num_outputs_, dimension_);
  const Matrix w = cholesky.solve(target_sums.transpose());  // dimension × outputs
  if (!p.allFinite() || !w.allFinite() || !std::isfinite(form.noise_weight)) {
    return absl::FailedPreconditionError("RLS: the information form gives a state that is not finite");
  }
  for (int i = 0; i < dimension_; ++i) {
    for (int j = i; j < dimension_; ++j) Row(i)[j] = static_cast<Real>(0.5 * (p(i, j) + p(j, i)));
  }
  pending_scale_ = 1;
  pending_gain_weight_ = 0;
  pending_refresh_weight_ = 0;
  std::fill(gain_.begin(), gain_.end(), Real{0});
  std::fill(refresh_gain_.begin(), refresh_gain_.end(), Real{0});
  for (int output = 0; output < num_outputs_; ++output) {
    for (int i = 0; i < dimension_; ++i) {
      weights_[static_cast<std::size_t>(output) * dimension + i] = static_cast<Real>(w(i, output));
    }
  }
  for (int output = 0; output < num_outputs_; ++output) {
    noise_sums_[output] = static_cast<Real>(form.noise_sums[output]);
  }
  noise_weight_ = static_cast<Real>(form.noise_weight);
  return absl::OkStatus();
}

template absl::StatusOr<BasicRls<float>::InformationForm> BasicRls<float>::ToInformationForm() const;
template absl::StatusOr<BasicRls<double>::InformationForm> BasicRls<double>::ToInformationForm() const;
template absl::Status BasicRls<float>::SetInformationForm(const InformationForm&);
template absl::Status BasicRls<double>::SetInformationForm(const InformationForm&);

}  // namespace rffstream
