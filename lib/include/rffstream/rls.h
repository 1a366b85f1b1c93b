// File: rffstream/rls.h
//
// Recursive least squares: ridge regression weights kept current one sample at
// a time, without storing the data. With forgetting factor β = 1 the weights
// after n samples equal the batch ridge solution
//
//   w = (λ I + Σ z_t z_tᵀ)⁻¹ Σ z_t y_t
//
// up to rounding. With β < 1 recent samples weigh more and the ridge is kept
// alive by a cyclic rank-one refresh (Gunnarsson 1996): after sample t the
// information matrix gains α e_i e_iᵀ for one coordinate i = t mod D, with
// α = D (1 - β) λ. Averaged over a cycle that restores the (1 - β) λ I the
// decay removed, so the regularization stays near λ I instead of fading as
// βⁿ λ, P stays bounded when the input stops exciting some direction, and it
// costs O(D²) per sample. Exactly, after n samples:
//
//   A_n = βⁿ λ I + Σ_t β^(n-t) (z_t z_tᵀ + α e_(t mod D) e_(t mod D)ᵀ),
//   b_n = Σ_t β^(n-t) z_t y_t,   w = A_n⁻¹ b_n.
//
//   rffstream::Rls rls(/*dimension=*/4, /*ridge=*/1e-3, /*forgetting=*/1.0);
//   const double z[4] = {0.5, -0.1, 0.3, 1.0};
//   double prior = rls.Learn(z, 2.0);  // prediction made before learning
#ifndef RFFSTREAM_RLS_H_
#define RFFSTREAM_RLS_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/status.h"

namespace rffstream {
namespace internal {
class ByteReader;
class ByteWriter;
class CheckpointAccess;
}  // namespace internal

template <class Real>
class BasicRls {
 public:
  // REQUIRES: dimension > 0, ridge > 0, 0 < forgetting <= 1 (LearnerConfig::Validate).
  BasicRls(int dimension, double ridge, double forgetting);

  int dimension() const { return dimension_; }

  // wᵀz. REQUIRES: z.size() == dimension().
  Real Predict(std::span<const Real> z) const;

  // Learns (z, target) and returns the a-priori prediction wᵀz made before
  // the update. REQUIRES: z.size() == dimension(), all finite. No allocation.
  Real Learn(std::span<const Real> z, Real target);

  std::span<const Real> weights() const { return weights_; }

  // A copy of P = A⁻¹ as a full dimension() × dimension() row-major matrix
  // (for inspection and export; allocates).
  std::vector<Real> CovarianceMatrix() const;

 private:
  friend class internal::CheckpointAccess;

  // The complete learning state, for checkpoints.
  void SaveState(internal::ByteWriter& writer) const;
  [[nodiscard]] absl::Status LoadState(internal::ByteReader& reader);

  // P -= g gᵀ / denominator, on the full matrix.
  void SubtractOuterProduct(std::span<const Real> gain, Real denominator);
  void RefreshRegularization();

  int dimension_;
  Real forgetting_;
  Real refresh_strength_;  // α = D (1 - β) λ
  int next_refreshed_coordinate_ = 0;
  std::vector<Real> covariance_;  // P = A⁻¹, dimension² row-major
  std::vector<Real> weights_;
  std::vector<Real> gain_;  // scratch: P z
};

using Rls = BasicRls<double>;
using RlsF32 = BasicRls<float>;

extern template class BasicRls<float>;
extern template class BasicRls<double>;

}  // namespace rffstream

#endif  // RFFSTREAM_RLS_H_
