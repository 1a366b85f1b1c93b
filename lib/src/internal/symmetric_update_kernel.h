// File: internal/symmetric_update_kernel.h
//
// The single pass over P that RLS makes per sample (see symmetric_update.h),
// written once on xsimd batches and instantiated per instruction set in
// simd_kernels_<arch>.cpp. Include this header only from those files.
//
// Rows are processed kRowsPerBlock at a time: one load of u, z (and g) and one
// load/store of the product serve all of them, and each row keeps its own
// vector accumulator for its part of P z, reduced once per row at the end.
// The vectors that cross the diagonal are masked per row, so the lower
// triangle is never written (it stays zero) and every stored entry counts once
// in the row sum and once (off the diagonal) in the column sums.
#ifndef RFFSTREAM_INTERNAL_SYMMETRIC_UPDATE_KERNEL_H_
#define RFFSTREAM_INTERNAL_SYMMETRIC_UPDATE_KERNEL_H_

#include <algorithm>
#include <cstddef>

#include "internal/padded_length.h"
#include "xsimd/xsimd.hpp"

// The inner step is inlined into each of its loops. GCC reads the attribute
// after a lambda's parameters as the call operator's; clang applies only the
// GNU spelling there (and ignores the other with a warning).
#if defined(__clang__)
#define RFFSTREAM_ALWAYS_INLINE_LAMBDA __attribute__((always_inline))
#else
#define RFFSTREAM_ALWAYS_INLINE_LAMBDA [[gnu::always_inline]]
#endif

namespace rffstream::internal {

template <class Real, class Arch>
class SymmetricUpdateKernel {
 public:
  // The signature of UpdateAndMultiplySymmetric (symmetric_update.h).
  static void Run(Real* matrix, int dimension, Real scale, const Real* u, Real a, const Real* g,
                  Real b, bool bottom_up, const Real* z, Real* product, int first_row,
                  int end_row) {
    const Pass pass{matrix, PaddedLength(dimension), dimension, scale, u, a, g, b, bottom_up, z,
                    product, first_row, end_row};
    // β = 1 makes the scale exactly 1 after the first sample: skip the multiply.
    if (scale == Real{1}) {
      g != nullptr ? Body<false, true>(pass) : Body<false, false>(pass);
    } else {
      g != nullptr ? Body<true, true>(pass) : Body<true, false>(pass);
    }
  }

 private:
  using Batch = xsimd::batch<Real, Arch>;
  static constexpr int kLanes = static_cast<int>(Batch::size);
  static constexpr int kRowsPerBlock = 4;

  struct Pass {
    Real* matrix;
    std::size_t stride;
    int dimension;
    Real scale;
    const Real* u;
    Real a;
    const Real* g;
    Real b;
    bool bottom_up;
    const Real* z;
    Real* product;
    int first_row;
    int end_row;
  };

  template <bool kScaled, bool kSecondUpdate>
  static void Body(const Pass& pass) {
    // The product's entries this range of rows adds to: from the vector
    // holding its first row on.
    const int first_written = pass.first_row / kLanes * kLanes;
    std::fill(pass.product + first_written, pass.product + pass.stride, Real{0});
    // Rows in blocks of kRowsPerBlock from the range's top, the last few one by one.
    const int blocked =
        pass.first_row + (pass.end_row - pass.first_row) / kRowsPerBlock * kRowsPerBlock;
    if (!pass.bottom_up) {
      for (int first = pass.first_row; first < blocked; first += kRowsPerBlock) {
        RowBlock<kRowsPerBlock, kScaled, kSecondUpdate>(pass, first);
      }
      for (int row = blocked; row < pass.end_row; ++row) {
        RowBlock<1, kScaled, kSecondUpdate>(pass, row);
      }
    } else {
      for (int row = pass.end_row - 1; row >= blocked; --row) {
        RowBlock<1, kScaled, kSecondUpdate>(pass, row);
      }
      for (int first = blocked - kRowsPerBlock; first >= pass.first_row; first -= kRowsPerBlock) {
        RowBlock<kRowsPerBlock, kScaled, kSecondUpdate>(pass, first);
      }
    }
  }

  // Rows first .. first + kRows - 1: their stored entries (columns j >= row)
  // are updated, their row sums go to product[row] and their entries right of
  // the diagonal add z[row]·P[row][j] to product[j].
  template <int kRows, bool kScaled, bool kSecondUpdate>
  [[gnu::always_inline]] static inline void RowBlock(const Pass& pass, int first) {
    Real* rows[kRows];
    // Negated weights: fma(-a u_i, u_j, p) is fnma, which xsimd 8.1 lacks on AVX-512.
    Batch minus_a_u[kRows], minus_b_g[kRows], z_row[kRows], row_sum[kRows];
    for (int r = 0; r < kRows; ++r) {
      rows[r] = pass.matrix + static_cast<std::size_t>(first + r) * pass.stride;
      minus_a_u[r] = Batch(-pass.a * pass.u[first + r]);
      minus_b_g[r] = kSecondUpdate ? Batch(-pass.b * pass.g[first + r]) : Batch(Real{0});
      z_row[r] = Batch(pass.z[first + r]);
      row_sum[r] = Batch(Real{0});
    }
    const Batch scale(pass.scale);
    const auto step = [&]<bool kCrossesDiagonal>(int j) RFFSTREAM_ALWAYS_INLINE_LAMBDA {
      const Batch u_j = Batch::load_unaligned(pass.u + j);
      const Batch z_j = Batch::load_unaligned(pass.z + j);
      const Batch g_j = kSecondUpdate ? Batch::load_unaligned(pass.g + j) : Batch(Real{0});
      Batch column_sum = Batch::load_unaligned(pass.product + j);
      for (int r = 0; r < kRows; ++r) {
        const Batch stored = Batch::load_unaligned(rows[r] + j);
        Batch value = xsimd::fma(minus_a_u[r], u_j, kScaled ? stored * scale : stored);
        if constexpr (kSecondUpdate) value = xsimd::fma(minus_b_g[r], g_j, value);
        if constexpr (kCrossesDiagonal) {
          const Batch column = LaneIndices() + Batch(static_cast<Real>(j));
          const Real row = static_cast<Real>(first + r);
          const auto on_or_right = column >= Batch(row);
          value = xsimd::select(on_or_right, value, stored);
          row_sum[r] = xsimd::fma(xsimd::select(on_or_right, value, Batch(Real{0})), z_j, row_sum[r]);
          column_sum = xsimd::fma(xsimd::select(column > Batch(row), value, Batch(Real{0})),
                                  z_row[r], column_sum);
        } else {
          row_sum[r] = xsimd::fma(value, z_j, row_sum[r]);
          column_sum = xsimd::fma(value, z_row[r], column_sum);
        }
        value.store_unaligned(rows[r] + j);
      }
      column_sum.store_unaligned(pass.product + j);
    };
    // Whole vectors only: the zero padding of u, z, g and the rows adds nothing.
    const int end = (pass.dimension + kLanes - 1) / kLanes * kLanes;
    int j = first / kLanes * kLanes;
    for (; j < first + kRows; j += kLanes) step.template operator()<true>(j);
    for (; j < end; j += kLanes) step.template operator()<false>(j);
    for (int r = 0; r < kRows; ++r) pass.product[first + r] += xsimd::hadd(row_sum[r]);
  }

  static Batch LaneIndices() {
    alignas(Arch::alignment()) Real indices[kLanes];
    for (int lane = 0; lane < kLanes; ++lane) indices[lane] = static_cast<Real>(lane);
    return Batch::load_aligned(indices);
  }
};

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_SYMMETRIC_UPDATE_KERNEL_H_
