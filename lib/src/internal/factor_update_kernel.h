// File: internal/factor_update_kernel.h
//
// UpdateFactor (factor_update.h) written once on xsimd batches and
// instantiated per instruction set in simd_kernels_<arch>.cpp. Include this
// header only from those files.
//
// A column's loop starts at the vector that holds its diagonal entry: the
// entries above it are zero in the column and in the gain (whose non-zeros
// lie below the columns already rotated), so they add nothing to the dot
// product and stay zero under the rotation; no masks are needed.
#ifndef RFFSTREAM_INTERNAL_FACTOR_UPDATE_KERNEL_H_
#define RFFSTREAM_INTERNAL_FACTOR_UPDATE_KERNEL_H_

#include <cmath>
#include <cstddef>

#include "internal/factor_update.h"
#include "xsimd/xsimd.hpp"

namespace rffstream::internal {

template <class Real, class Arch>
struct FactorUpdateKernel {
  using Batch = xsimd::batch<Real, Arch>;
  static constexpr std::size_t kLanes = Batch::size;

  static Real Run(const FactorUpdateArguments<Real>& update, Real* min_diagonal) {
    Real top = update.top;
    Real smallest = Real{1} / Real{0};  // +infinity
    Real* const gain = update.gain;
    // The zeros past the last row need no work (the stride is a multiple of the lanes).
    const std::size_t end = (static_cast<std::size_t>(update.dimension) + kLanes - 1) / kLanes * kLanes;
    for (int j = update.last_column; j >= 0; --j) {
      Real* const column = update.factor + static_cast<std::size_t>(j) * update.stride;
      const std::size_t first = static_cast<std::size_t>(j) / kLanes * kLanes;
      Batch sum(Real{0});
      for (std::size_t i = first; i < end; i += kLanes) {
        sum = xsimd::fma(Batch::load_aligned(update.z + i), Batch::load_aligned(column + i), sum);
      }
      const Real a = xsimd::hadd(sum);
      const Real rho = std::hypot(top, a);
      const Real cosine = top / rho, sine = a / rho;
      // New column = scale (cos · column - sin · gain); gain = sin · column + cos · gain.
      const Batch column_cosine(update.column_scale * cosine);
      const Batch minus_column_sine(-update.column_scale * sine);
      const Batch gain_cosine(cosine), gain_sine(sine);
      for (std::size_t i = first; i < end; i += kLanes) {
        const Batch old_column = Batch::load_aligned(column + i);
        const Batch old_gain = Batch::load_aligned(gain + i);
        xsimd::fma(minus_column_sine, old_gain, column_cosine * old_column).store_aligned(column + i);
        xsimd::fma(gain_sine, old_column, gain_cosine * old_gain).store_aligned(gain + i);
      }
      if (!(column[j] >= smallest)) smallest = column[j];  // a NaN is kept
      top = rho;
    }
    *min_diagonal = smallest;
    return top;
  }
};

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_FACTOR_UPDATE_KERNEL_H_
