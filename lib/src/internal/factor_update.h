// File: internal/factor_update.h
//
// The square-root-free factored RLS step (Bierman's U-D measurement update,
// Bierman 1977, "Factorization Methods for Discrete Sequential
// Estimation") on P = L D Lᵀ, L unit lower triangular, D = diag(d) > 0.
// With f = Lᵀz and v = D f, the rank-one downdate
//
//   P' = (P - P z zᵀ P / c) / β,   c = α₀ + zᵀPz,
//
// is L' D' L'ᵀ with, for j from the last column to the first (which keeps
// L' lower triangular), α_(j) = α_(j+1) + f_j v_j,
//
//   d'_j = d_j α_(j+1) / α_(j) / β,   L'_ij = L_ij - b_i f_j / α_(j+1),
//   b_i += L_ij v_j   (i > j, b starting at 0 and ending at P z).
//
// No entry of D is ever a difference: d'_j is d_j times a ratio of
// positive sums, so P stays positive definite whatever the rounding, and
// L D^(1/2) is P's Cholesky factor, whose condition number is the square
// root of P's. Givens rotations of that factor (the form this replaced)
// cost 5 multiply-adds an entry of the triangle and a square root and a
// division a column; this step 3 and one division.
//
// Column j is brought in once: f_j from the old column (still untouched
// when its turn comes), then its update with b while it is in L1; the SIMD
// kernels take a few columns at a time, so that b is loaded and stored once
// for all of them. The diagonal of L is stored (as 1): b_j is 0 before
// column j's turn, so the update leaves it 1 and the loops need no masks.
//
// Storage: column j of L starts at factor + j · stride (stride =
// PaddedLength(dimension), aligned), rows j .. dimension - 1; the entries
// above row j and past dimension are zero and stay zero.
#ifndef RFFSTREAM_INTERNAL_FACTOR_UPDATE_H_
#define RFFSTREAM_INTERNAL_FACTOR_UPDATE_H_

#include <cstddef>

namespace rffstream::internal {

template <class Real>
struct FactorUpdateArguments {
  Real* factor;  // L
  Real* scales;  // d, dimension entries
  std::size_t stride;
  int dimension;
  const Real* z;  // stride entries, zero past dimension
  // α₀: β for a sample learned with forgetting factor β, 1 without.
  Real prior;
  // Each d'_j is multiplied by this: 1/β makes L' D' L'ᵀ the factorization
  // of (P - P z zᵀ P / c) / β. REQUIRES: 1 unless last_column ==
  // dimension - 1 (skipped columns are not scaled).
  Real scale_factor;
  // The columns j > last_column are skipped: right when z is zero below
  // row last_column + 1 (then f_j = 0 there), as for z = sqrt(α) e_i.
  int last_column;
  // stride entries, zero on entry; on return P z.
  Real* gain;
};

// Returns c; `min_scale` receives the smallest d'_j among the columns
// processed (positive while the factorization is proper).
template <class Real>
Real UpdateFactor(const FactorUpdateArguments<Real>& update, Real* min_scale);

// k samples' steps (α₀ = 1, no forgetting) fused: the same arithmetic, in
// the same order for every entry, as k UpdateFactor calls one after another,
// so the factor, the scales and each sample's P z and c are bitwise theirs.
// The columns are swept once: a group of columns takes the k samples in
// turn while it is in L1, and sample s + 1's dot products with the group
// are summed in sample s's update of it. The weights need none of this
// (w_s · z_s needs only the earlier samples' P z, c and errors), so they
// are stepped afterwards, one sample at a time, by the caller.
//
// The factor is read from `factor` and written to `updated_factor`, so that
// the caller can undo the block by keeping the first (no copy).
template <class Real>
struct FactorBlockUpdateArguments {
  const Real* factor;  // L before the block, as FactorUpdateArguments
  // L after it: the entries the steps write are written; the others (above
  // each column's first vector, past the last row's vector) must be zero.
  Real* updated_factor;
  Real* scales;  // d, updated in place
  std::size_t stride;
  int dimension;
  int block_size;  // k
  const Real* z;   // k runs of stride entries, zero past dimension
  Real* gains;     // k runs of stride entries, zero on entry; on return P z of each sample
  Real* denominators;    // out: k entries, c of each sample
  Real* min_scales;      // out: k entries, the smallest d' of each sample's step
  Real* inverse_alphas;  // scratch: k entries
};

template <class Real>
void UpdateFactorBlock(const FactorBlockUpdateArguments<Real>& block);

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_FACTOR_UPDATE_H_
