// File: internal/information_square_root.h
//
// A state given whole taken as the square root of its information matrix
// (BasicRls::SetInformationForm in the factor form with β = 1).
#ifndef RFFSTREAM_INTERNAL_INFORMATION_SQUARE_ROOT_H_
#define RFFSTREAM_INTERNAL_INFORMATION_SQUARE_ROOT_H_

#include <cstddef>
#include <vector>

#include "rffstream/aligned_vector.h"

namespace rffstream::internal {

// The square root of the information matrix as a bulk block leaves it
// (rls_bulk.cpp): A = QᵀQ with Q lower triangular, its columns j at
// j · stride in `factor`, and B = Q w beside them; `w` holds b on entry and
// w on return. With Ã = J A J (the order reversed) = L̃ L̃ᵀ by Cholesky,
// Q = J L̃ᵀ J, B = J L̃⁻¹ J b and w = J L̃⁻ᵀ J B; `explained` receives each
// output's bᵀw as ‖B‖², which a forward substitution gets to about ε √κ(A)
// rather than ε κ(A). False if A is not positive definite, a diagonal entry
// of Q would give a d out of range, or Q or B do not fit in Real.
template <class Real>
bool FactorInformation(const std::vector<double>& information, int dimension, int outputs,
                       std::size_t stride, std::vector<double>& w, AlignedVector<Real>& factor,
                       std::vector<double>& explained);

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_INFORMATION_SQUARE_ROOT_H_
