// File: internal/factor_update_kernel.h
//
// UpdateFactor (factor_update.h) written once on xsimd batches and
// instantiated per instruction set in simd_kernels_<arch>.cpp. Include this
// header only from those files.
//
// A group's loops start at the vector that holds the diagonal entry of its
// leftmost column: the entries above a column's diagonal are zero in the
// column and in b (whose non-zeros lie below the columns already updated),
// so they add nothing to the dot products and stay zero under the updates;
// no masks are needed.
#ifndef RFFSTREAM_INTERNAL_FACTOR_UPDATE_KERNEL_H_
#define RFFSTREAM_INTERNAL_FACTOR_UPDATE_KERNEL_H_

#include <cstddef>

#include "internal/factor_update.h"
#include "xsimd/xsimd.hpp"

namespace rffstream::internal {

template <class Real, class Arch>
struct FactorUpdateKernel {
  using Batch = xsimd::batch<Real, Arch>;
  static constexpr std::size_t kLanes = Batch::size;
  // Columns updated together, in one loop that loads and stores b once for
  // all; the next group's dot products ride along in the same loop (one
  // pass over the rows for both: fewer trips to L2 and beyond).
  static constexpr int kColumnsPerGroup = 4;

  static Real Run(const FactorUpdateArguments<Real>& update, Real* min_scale) {
    State state{update.prior, Real{1} / update.prior, Real{1} / Real{0}};  // smallest: +infinity
    int j = update.last_column;
    if (j + 1 >= kColumnsPerGroup) {
      // Software-pipelined: the next group's dot products (old columns,
      // independent of this group's updates) are summed while this group's
      // columns are updated.
      Batch sums[kColumnsPerGroup];
      Dots<kColumnsPerGroup>(update, j, sums);
      for (; j + 1 >= kColumnsPerGroup; j -= kColumnsPerGroup) {
        const Multipliers<kColumnsPerGroup> multipliers = Constants<kColumnsPerGroup>(update, j, sums, state);
        if (j + 1 >= 2 * kColumnsPerGroup) {
          Update<kColumnsPerGroup, true>(update, j, multipliers, sums);
        } else {
          Update<kColumnsPerGroup, false>(update, j, multipliers, sums);
        }
      }
    }
    for (; j >= 0; --j) {
      Batch sum[1];
      Dots<1>(update, j, sum);
      Update<1, false>(update, j, Constants<1>(update, j, sum, state), sum);
    }
    *min_scale = state.smallest;
    return state.alpha;
  }

 private:
  struct State {
    Real alpha;          // α of the columns so far
    Real inverse_alpha;  // 1 / alpha
    Real smallest;       // the smallest d' so far
  };

  template <int kColumns>
  struct Multipliers {
    // New column = column + b · p; b += old column · v.
    Batch p[kColumns], v[kColumns];
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

  // The columns' scalars one after another, each on the α the previous one
  // left; d'_j stored. No overflow: c is bounded before the pass.
  template <int kColumns>
  static Multipliers<kColumns> Constants(const FactorUpdateArguments<Real>& update, int j,
                                         const Batch* sums, State& state) {
    Multipliers<kColumns> multipliers;
    for (int k = 0; k < kColumns; ++k) {
      const Real f = xsimd::hadd(sums[k]);
      Real& d = update.scales[j - k];
      const Real v = d * f;
      const Real alpha = state.alpha + f * v;
      const Real inverse = Real{1} / alpha;
      multipliers.p[k] = Batch(-f * state.inverse_alpha);
      multipliers.v[k] = Batch(v);
      d = d * (state.alpha * inverse) * update.scale_factor;
      if (!(d >= state.smallest) && state.smallest == state.smallest) state.smallest = d;  // NaN stays
      state.alpha = alpha;
      state.inverse_alpha = inverse;
    }
    return multipliers;
  }

  // Updates columns j, j - 1, ..., j - kColumns + 1 and b; with kNextDots,
  // also sums the dot products of the next kColumns columns (still old)
  // with z into `next_sums`, in the same pass over the rows.
  template <int kColumns, bool kNextDots>
  static void Update(const FactorUpdateArguments<Real>& update, int j,
                     const Multipliers<kColumns>& multipliers, Batch* next_sums) {
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
      // The next columns start higher: their first rows have no update yet.
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
        xsimd::fma(gain, multipliers.p[k], column).store_aligned(columns[k] + i);
        gain = xsimd::fma(column, multipliers.v[k], gain);
      }
      gain.store_aligned(update.gain + i);
      if constexpr (kNextDots) {
        const Batch z = Batch::load_aligned(update.z + i);
        for (int k = 0; k < kColumns; ++k) {
          next_sums[k] = xsimd::fma(z, Batch::load_aligned(next_columns[k] + i), next_sums[k]);
        }
      }
    }
  }
};

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_FACTOR_UPDATE_KERNEL_H_
