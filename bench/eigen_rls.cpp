#include "eigen_rls.h"

namespace rffstream::bench {

template <class Real>
EigenRls<Real>::EigenRls(int dimension, Real ridge)
    : covariance_(Matrix::Identity(dimension, dimension) / ridge),
      weights_(Vector::Zero(dimension)),
      gain_(dimension) {}

template <class Real>
Real EigenRls<Real>::Learn(const Vector& z, Real target) {
  const Real prior = weights_.dot(z);
  gain_.noalias() = covariance_.template selfadjointView<Eigen::Lower>() * z;
  const Real denominator = 1 + z.dot(gain_);
  weights_ += gain_ * ((target - prior) / denominator);
  covariance_.template selfadjointView<Eigen::Lower>().rankUpdate(gain_, -1 / denominator);
  return prior;
}

template <class Real>
void EigenRls<Real>::LearnBlock(const Matrix& features, const Vector& targets) {
  // Woodbury: U = P Z, S = I + Zᵀ U, w += U S⁻¹ (y - Zᵀ w), P -= U S⁻¹ Uᵀ.
  const Matrix gains = covariance_.template selfadjointView<Eigen::Lower>() * features;
  Matrix system = features.transpose() * gains;
  system.diagonal().array() += 1;
  const Eigen::LLT<Matrix> cholesky(system);
  const Vector errors = targets - features.transpose() * weights_;
  weights_ += gains * cholesky.solve(errors);
  // U S⁻¹ Uᵀ = (U L⁻ᵀ)(U L⁻ᵀ)ᵀ with S = L Lᵀ.
  const Matrix half = cholesky.matrixL().solve(gains.transpose()).transpose();
  covariance_.template selfadjointView<Eigen::Lower>().rankUpdate(half, -1);
}

template class EigenRls<float>;
template class EigenRls<double>;

}  // namespace rffstream::bench
