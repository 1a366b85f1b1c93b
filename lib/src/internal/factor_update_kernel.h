// File: internal/factor_update_kernel.h
//
// UpdateFactor (factor_update.h) written once on xsimd batches and
// instantiated per instruction set in simd_kernels_<arch>.cpp. Include this
// header only from those files.
//
// A group's loops start at the vector that holds the diagonal entry of its
// leftmost column: the entries above a column's diagonal are zero in the
// column and in the gain (whose non-zeros lie below the columns already
// rotated), so they add nothing to the dot products and stay zero under the
// rotations; no masks are needed.
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
  // Columns rotated together: their dot products in one loop, then their
  // rotations in one loop that loads and stores the gain once for all.
  static constexpr int kColumnsPerGroup = 4;
  // From this dimension on, a group's rotations and the next group's dot
  // products share one loop (measured: faster at D = 1024, slower at 256).
  static constexpr int kRideAlongFrom = 512;

  static Real Run(const FactorUpdateArguments<Real>& update, Real* min_diagonal) {
    // Without forgetting the columns are not scaled: a column's rotation
    // needs two constants instead of four, which keeps a group's constants
    // in the 16 vector registers of AVX2 (the same products, so the same
    // bits).
    return update.column_scale == Real{1} ? RunColumns<false>(update, min_diagonal)
                                          : RunColumns<true>(update, min_diagonal);
  }

 private:
  template <bool kScaled>
  static Real RunColumns(const FactorUpdateArguments<Real>& update, Real* min_diagonal) {
    State state{update.top, Real{1} / Real{0}};  // smallest diagonal: +infinity
    int j = update.last_column;
    if (j + 1 >= kColumnsPerGroup) {
      // Software-pipelined: the next group's dot products (old columns,
      // independent of this group's rotations) are issued while this
      // group's serial chain of square roots and divisions is in flight.
      // Large factors: the next group's dot products ride along in this
      // group's rotation loop, one pass over the rows for both (fewer trips
      // to L2 and beyond). Small ones, whose columns are short and in
      // cache, run the two loops apart (fewer registers live at once).
      const bool ride_along = update.dimension >= kRideAlongFrom;
      Batch sums[kColumnsPerGroup];
      Dots<kColumnsPerGroup>(update, j, sums);
      for (; j + 1 >= kColumnsPerGroup; j -= kColumnsPerGroup) {
        Rotation<kColumnsPerGroup> rotation = Angles<kColumnsPerGroup>(update, sums, state);
        const bool more = j + 1 >= 2 * kColumnsPerGroup;
        if (more && ride_along) {
          Rotate<kColumnsPerGroup, true, kScaled>(update, j, rotation, state, sums);
          continue;
        }
        if (more) Dots<kColumnsPerGroup>(update, j - kColumnsPerGroup, sums);
        Rotate<kColumnsPerGroup, false, kScaled>(update, j, rotation, state, sums);
      }
    }
    for (; j >= 0; --j) {
      Batch sum[1];
      Dots<1>(update, j, sum);
      Rotate<1, false, kScaled>(update, j, Angles<1>(update, sum, state), state, sum);
    }
    *min_diagonal = state.smallest;
    return state.top;
  }

  struct State {
    Real top;
    Real smallest;
  };

  template <int kColumns>
  struct Rotation {
    // New column = scale (cos · column - sin · gain); gain = sin · column + cos · gain.
    Batch column_cosines[kColumns], minus_column_sines[kColumns], gain_cosines[kColumns],
        gain_sines[kColumns];
  };

  static std::size_t End(const FactorUpdateArguments<Real>& update) {
    // The zeros past the last row need no work (the stride is a multiple of the lanes).
    return (static_cast<std::size_t>(update.dimension) + kLanes - 1) / kLanes * kLanes;
  }
  static std::size_t First(int j, int columns) {
    return static_cast<std::size_t>(j - columns + 1) / kLanes * kLanes;
  }
  static Real* Column(const FactorUpdateArguments<Real>& update, int j) {
    return update.factor + static_cast<std::size_t>(j) * update.stride;
  }

  // The dot products of columns j, j - 1, ..., j - kColumns + 1 with z, in lanes.
  template <int kColumns>
  static void Dots(const FactorUpdateArguments<Real>& update, int j, Batch* sums) {
    const Real* columns[kColumns];
    for (int k = 0; k < kColumns; ++k) {
      columns[k] = Column(update, j - k);
      sums[k] = Batch(Real{0});
    }
    const std::size_t end = End(update);
    for (std::size_t i = First(j, kColumns); i < end; i += kLanes) {
      const Batch z = Batch::load_aligned(update.z + i);
      for (int k = 0; k < kColumns; ++k) sums[k] = xsimd::fma(z, Batch::load_aligned(columns[k] + i), sums[k]);
    }
  }

  // The rotations one after another: each zeroes its a against the top the
  // previous one left. No overflow: c is bounded before the pass.
  template <int kColumns>
  static Rotation<kColumns> Angles(const FactorUpdateArguments<Real>& update, const Batch* sums,
                                   State& state) {
    Rotation<kColumns> rotation;
    for (int k = 0; k < kColumns; ++k) {
      const Real a = xsimd::hadd(sums[k]);
      const Real rho = std::sqrt(state.top * state.top + a * a);
      const Real inverse = Real{1} / rho;
      const Real cosine = state.top * inverse, sine = a * inverse;
      rotation.column_cosines[k] = Batch(update.column_scale * cosine);
      rotation.minus_column_sines[k] = Batch(-update.column_scale * sine);
      rotation.gain_cosines[k] = Batch(cosine);
      rotation.gain_sines[k] = Batch(sine);
      state.top = rho;
    }
    return rotation;
  }

  // Rotates columns j, j - 1, ..., j - kColumns + 1; with kNextDots, also
  // sums the dot products of the next kColumns columns (still old) with z
  // into `next_sums`, in the same pass over the rows. Without kScaled the
  // column's constants are the gain's (column_scale is 1).
  template <int kColumns, bool kNextDots, bool kScaled>
  static void Rotate(const FactorUpdateArguments<Real>& update, int j,
                     const Rotation<kColumns>& rotation, State& state, Batch* next_sums) {
    Real* columns[kColumns];
    const Real* next_columns[kColumns];
    for (int k = 0; k < kColumns; ++k) {
      columns[k] = Column(update, j - k);
      next_columns[k] = kNextDots ? Column(update, j - kColumns - k) : nullptr;
      if (kNextDots) next_sums[k] = Batch(Real{0});
    }
    const std::size_t end = End(update);
    const std::size_t first = First(j, kColumns);
    if constexpr (kNextDots) {
      // The next columns start higher: their first rows have no rotation yet.
      for (std::size_t i = First(j - kColumns, kColumns); i < first; i += kLanes) {
        const Batch z = Batch::load_aligned(update.z + i);
        for (int k = 0; k < kColumns; ++k) {
          next_sums[k] = xsimd::fma(z, Batch::load_aligned(next_columns[k] + i), next_sums[k]);
        }
      }
    }
    for (std::size_t i = first; i < end; i += kLanes) {
      Batch gain = Batch::load_aligned(update.gain + i);
      for (int k = 0; k < kColumns; ++k) {
        const Batch column = Batch::load_aligned(columns[k] + i);
        if constexpr (kScaled) {
          xsimd::fma(rotation.minus_column_sines[k], gain, rotation.column_cosines[k] * column)
              .store_aligned(columns[k] + i);
        } else {
          xsimd::fnma(rotation.gain_sines[k], gain, rotation.gain_cosines[k] * column)
              .store_aligned(columns[k] + i);
        }
        gain = xsimd::fma(rotation.gain_sines[k], column, rotation.gain_cosines[k] * gain);
      }
      gain.store_aligned(update.gain + i);
      if constexpr (kNextDots) {
        const Batch z = Batch::load_aligned(update.z + i);
        for (int k = 0; k < kColumns; ++k) {
          next_sums[k] = xsimd::fma(z, Batch::load_aligned(next_columns[k] + i), next_sums[k]);
        }
      }
    }
    for (int k = 0; k < kColumns; ++k) {
      const Real diagonal = columns[k][j - k];
      if (!(diagonal >= state.smallest)) state.smallest = diagonal;  // a NaN is kept
    }
  }
};

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_FACTOR_UPDATE_KERNEL_H_
