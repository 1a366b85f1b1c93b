// File: internal/factor_update.h
//
// The square-root RLS step (inverse QR-RLS, Alexander & Ghirnikar, IEEE TSP
// 1993) on a lower-triangular factor S with P = S Sᵀ. The pre-array
//
//   [ top   zᵀS ]        [ sqrt(c)        0  ]
//   [ 0      S  ]  Θ  =  [ P z / sqrt(c)  S' ]
//
// is rotated by Givens rotations Θ (column 0 against column j, j from the
// last column to the first, which keeps S' lower triangular): c = top² +
// zᵀPz and S' S'ᵀ = P - P z zᵀ P / c. There is no subtraction: S' is a
// product of S and an orthogonal matrix, so P stays positive definite
// whatever the rounding, and the factor's condition number is the square
// root of P's (float32 holds what the covariance form cannot).
//
// Column j of S is brought in once: a_j = Σ_i z_i S_ij (entry j of zᵀS,
// which needs the old column j only, still untouched when its turn comes),
// then the rotation that zeroes a_j against the running top is applied to
// (gain, column j) while the column is in L1; the SIMD kernels take a few
// columns at a time, so that the gain is loaded and stored once for all of
// them. About 5 D² / 2 multiply-adds a sample.
//
// Storage: column j of S starts at factor + j · stride (stride =
// PaddedLength(dimension), aligned), rows j .. dimension - 1; the entries
// above row j and past dimension are zero and stay zero.
#ifndef RFFSTREAM_INTERNAL_FACTOR_UPDATE_H_
#define RFFSTREAM_INTERNAL_FACTOR_UPDATE_H_

#include <cstddef>

namespace rffstream::internal {

template <class Real>
struct FactorUpdateArguments {
  Real* factor;
  std::size_t stride;
  int dimension;
  const Real* z;  // stride entries, zero past dimension
  // The pre-array's corner: sqrt(β) for a sample learned with forgetting
  // factor β, 1 without.
  Real top;
  // Each column of S' is multiplied by this after its rotation: 1/sqrt(β)
  // makes S' the factor of (P - P z zᵀ P / c) / β. REQUIRES: 1 unless
  // last_column == dimension - 1 (skipped columns are not scaled).
  Real column_scale;
  // The columns j > last_column are skipped: right when z is zero below
  // row last_column + 1 (then a_j = 0 there), as for z = sqrt(α) e_i.
  int last_column;
  // stride entries, zero on entry; on return P z / sqrt(c).
  Real* gain;
};

// Returns sqrt(c); `min_diagonal` receives the smallest diagonal entry of S'
// among the columns processed (positive while S' is a proper factor).
template <class Real>
Real UpdateFactor(const FactorUpdateArguments<Real>& update, Real* min_diagonal);

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_FACTOR_UPDATE_H_
