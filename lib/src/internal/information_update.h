// File: internal/information_update.h
//
// RLS in bulk (β = 1): a block of k samples joins the square root of the
// information matrix, A = Qᵀ Q with Q lower triangular, by one QR
// factorization (Householder), the way LAPACK's xTPQRT joins rows to a
// triangle. With B = Q w the rotated targets (one column per output),
//
//   [Q  B]       [Q'  B']
//   [Z  Y]  ->   [0   E ]   by an orthogonal H:  Q'ᵀQ' = QᵀQ + ZᵀZ,  w' = Q'⁻¹ B',
//
// and ‖E‖² of each output is what the block adds to the least-squares cost,
// which equals Σ e_s² / c_s over the block's samples learned one at a time
// (the noise estimate's sums). Nothing is subtracted from a matrix of
// squares: Q is updated by reflections, so A stays positive definite and
// the numbers carry the square root of its condition number.
//
// Columns are eliminated from the last to the first, which keeps Q lower
// triangular, so that P = Q⁻¹ Q⁻ᵀ is L D Lᵀ (L unit lower triangular, the
// factor form of BasicRls) with L D^(1/2) = Q⁻¹. Panels of columns are
// reduced one reflection at a time, and each panel's reflections are then
// applied to the columns left of it at once (I - V T Vᵀ, the compact WY
// form): two matrix products, at the machine's matrix-product rate.
#ifndef RFFSTREAM_INTERNAL_INFORMATION_UPDATE_H_
#define RFFSTREAM_INTERNAL_INFORMATION_UPDATE_H_

#include <cstddef>

namespace rffstream {
class ThreadPool;
}  // namespace rffstream

namespace rffstream::internal {

// Samples joined per pass (the same Q' to rounding as all at once): each
// panel of columns passes over the pass's Z, which is kept to about 2^20
// numbers (4 MiB in float32) so that it stays in the last-level cache.
inline constexpr int InformationRowsPerPass(int dimension) {
  constexpr int kNumbers = 1 << 20;
  return dimension >= kNumbers / 128 ? 128 : dimension <= kNumbers / 1024 ? 1024 : kNumbers / dimension;
}

template <class Real>
struct InformationUpdateArguments {
  Real* factor;           // Q: column j at factor + j · stride, rows j .. dimension - 1
  Real* rotated_targets;  // B: num_outputs columns at rotated_targets + o · stride
  std::size_t stride;
  int dimension;
  int block_size;  // k
  int num_outputs;
  const Real* features;  // k rows of `dimension` (row-major)
  const Real* targets;   // k rows of num_outputs
  Real* weights;         // in: w; out: w' (num_outputs runs of `dimension`)
  Real* priors;          // out: k rows of num_outputs: Z w, made with the weights before the block
  Real* added_costs;     // out: ‖E‖² of each output
  Real* scratch;         // min(k, InformationRowsPerPass(dimension)) · (dimension + num_outputs) entries
  // The columns left of a panel are updated in fixed parts of 128 columns,
  // run on the pool's threads when there is one: the same bits with any number.
  ThreadPool* pool = nullptr;
};

// On this CPU's SIMD kernels (simd_kernels.h).
template <class Real>
void UpdateInformation(const InformationUpdateArguments<Real>& update);

// zᵀ P z = ‖u‖² with Qᵀ u = z (P = Q⁻¹ Q⁻ᵀ), in double; Q as in the arguments.
template <class Real>
Real InformationQuadraticForm(const Real* factor, std::size_t stride, int dimension, const Real* z);

// A lower triangle (dimension × dimension, column-major) replaced by its
// inverse's; the entries above the diagonal are left as they were.
void InvertLowerTriangular(double* matrix, int dimension);
// A positive definite matrix's lower triangle (dimension × dimension,
// column-major) replaced by its Cholesky factor's; false when it is not
// positive definite.
[[nodiscard]] bool CholeskyLower(double* matrix, int dimension);

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_INFORMATION_UPDATE_H_
