// File: internal/symmetric_update.h
//
// The single pass over P that RLS makes per sample: the rank-one updates left
// over from the previous sample are applied while the product P z for the
// current sample is accumulated, so P travels through the caches once per
// sample instead of three times (read for P z, read and write for the update).
// Only the upper triangle (j >= i) of P is stored and touched, which keeps P
// exactly symmetric and halves the traffic.
//
// The SIMD kernel is the one the feature map uses (simd_kernels.h: chosen at
// run time, forced by --simd); symmetric_update_kernel.h has its method.
#ifndef RFFSTREAM_INTERNAL_SYMMETRIC_UPDATE_H_
#define RFFSTREAM_INTERNAL_SYMMETRIC_UPDATE_H_

#include <cstddef>

#include "internal/padded_length.h"

namespace rffstream::internal {

// With P the upper triangle of the row-major `matrix` (row stride
// PaddedLength(dimension)), on its rows first_row .. end_row - 1 (all rows:
// 0 .. dimension):
//   P <- scale P - a u uᵀ - b g gᵀ     (the g term is skipped when g is null)
//   product <- P z                    (with the updated P, read symmetrically)
// where a range's product is what its stored entries contribute: rows
// [first, end) write product entries from at most first on (a kernel may
// start at first rounded down to its vector's start, writing zeros there;
// lower entries are left alone); the products of
// ranges that together cover every row add up to P z. Ranges may run on
// different threads at once, each with its own product.
// Rows go top to bottom, or bottom to top with `bottom_up`. Alternating the
// two starts each pass on the rows the previous one left in the caches (at
// D = 1024 the part of P that stays in L2). Every entry is visited once
// either way; only the order of the sums differs.
// REQUIRES: u, z, product (and g) hold PaddedLength(dimension) entries, those
// past `dimension` zero, as are the matrix rows past `dimension` (they stay
// zero); product aliases nothing.
void UpdateAndMultiplySymmetric(float* matrix, int dimension, float scale, const float* u,
                                float a, const float* g, float b, bool bottom_up, const float* z,
                                float* product, int first_row, int end_row);
void UpdateAndMultiplySymmetric(double* matrix, int dimension, double scale, const double* u,
                                double a, const double* g, double b, bool bottom_up,
                                const double* z, double* product, int first_row, int end_row);

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_SYMMETRIC_UPDATE_H_
