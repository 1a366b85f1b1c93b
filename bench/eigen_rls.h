// File: bench/eigen_rls.h
//
// Baseline (b) of the RLS benchmarks: what an expert writes with Eigen in
// twenty lines — a lower-triangle selfadjointView product for P z and a
// rankUpdate for the downdate, per sample; for a block of k samples, the
// Woodbury identity with selfadjointView products, a k×k Cholesky and a rank-k
// update. Compiled with -march=native (see bench/CMakeLists.txt) so that Eigen
// gets every instruction the machine has.
#ifndef RFFSTREAM_BENCH_EIGEN_RLS_H_
#define RFFSTREAM_BENCH_EIGEN_RLS_H_

#include "Eigen/Dense"

namespace rffstream::bench {

template <class Real>
class EigenRls {
 public:
  using Matrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>;
  using Vector = Eigen::Matrix<Real, Eigen::Dynamic, 1>;

  EigenRls(int dimension, Real ridge);

  // One sample: returns the a-priori prediction.
  Real Learn(const Vector& z, Real target);

  // k samples at once (the columns of `features`); returns the weights' change.
  void LearnBlock(const Matrix& features, const Vector& targets);

  const Vector& weights() const { return weights_; }

 private:
  Matrix covariance_;  // lower triangle used
  Vector weights_;
  Vector gain_;
};

extern template class EigenRls<float>;
extern template class EigenRls<double>;

}  // namespace rffstream::bench

#endif  // RFFSTREAM_BENCH_EIGEN_RLS_H_
