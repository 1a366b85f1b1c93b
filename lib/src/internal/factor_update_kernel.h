// File: internal/factor_update_kernel.h
//
// UpdateFactor and UpdateFactorBlock (factor_update.h) written once on xsimd batches and
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
      Dots<kColumnsPerGroup>(update, update.factor, j, sums);
      for (; j + 1 >= kColumnsPerGroup; j -= kColumnsPerGroup) {
        const Multipliers<kColumnsPerGroup> multipliers = Constants<kColumnsPerGroup>(update, j, sums, state);
        if (j + 1 >= 2 * kColumnsPerGroup) {
          Update<kColumnsPerGroup, kNextColumns>(update, update.factor, j, multipliers, update.z, sums);
        } else {
          Update<kColumnsPerGroup, kNoDots>(update, update.factor, j, multipliers, nullptr, sums);
        }
      }
    }
    for (; j >= 0; --j) {
      Batch sum[1];
      Dots<1>(update, update.factor, j, sum);
      Update<1, kNoDots>(update, update.factor, j, Constants<1>(update, j, sum, state), nullptr, sum);
    }
    *min_scale = state.smallest;
    return state.alpha;
  }

  // UpdateFactorBlock (factor_update.h).
  static void RunBlock(const FactorBlockUpdateArguments<Real>& block) {
    for (int s = 0; s < block.block_size; ++s) {
      block.denominators[s] = Real{1};
      block.inverse_alphas[s] = Real{1};
      block.min_scales[s] = Real{1} / Real{0};
    }
    // The same groups of columns as Run's.
    int j = block.dimension - 1;
    for (; j + 1 >= kColumnsPerGroup; j -= kColumnsPerGroup) BlockGroup<kColumnsPerGroup>(block, j);
    for (; j >= 0; --j) BlockGroup<1>(block, j);
  }

 private:
  struct State {
    Real alpha;          // α of the columns so far
    Real inverse_alpha;  // 1 / alpha
    Real smallest;       // the smallest d' so far
  };

  // What Update sums besides its update: nothing; the dot products of the
  // next group's (old) columns with z; or those of its own columns, as
  // updated, with the next sample's z.
  enum AlsoSummed { kNoDots, kNextColumns, kUpdatedColumns };

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

  // The dot products of columns j, j - 1, ..., j - kColumns + 1 of `source`
  // (a factor laid out as update.factor) with z, in lanes.
  template <int kColumns>
  static void Dots(const FactorUpdateArguments<Real>& update, const Real* source, int j, Batch* sums) {
    const Real* columns[kColumns];
    for (int k = 0; k < kColumns; ++k) {
      columns[k] = source + static_cast<std::size_t>(j - k) * update.stride;
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

  // Updates columns j, j - 1, ..., j - kColumns + 1 (read from `source`,
  // written to update.factor) and b, and sums the dot products `kDots`
  // names with `dot_z` into `sums`, in the same pass over the rows.
  template <int kColumns, AlsoSummed kDots>
  static void Update(const FactorUpdateArguments<Real>& update, const Real* source, int j,
                     const Multipliers<kColumns>& multipliers, const Real* dot_z, Batch* sums) {
    const Real* old_columns[kColumns];
    Real* columns[kColumns];
    const Real* next_columns[kColumns];
    for (int k = 0; k < kColumns; ++k) {
      old_columns[k] = source + static_cast<std::size_t>(j - k) * update.stride;
      columns[k] = Column(update, j - k);
      next_columns[k] = kDots == kNextColumns ? Column(update, j - kColumns - k) : nullptr;
      if (kDots != kNoDots) sums[k] = Batch(Real{0});
    }
    const std::size_t end = End(update);
    const std::size_t first = First(j, kColumns);
    if constexpr (kDots == kNextColumns) {
      // The next columns start higher: their first rows have no update yet.
      for (std::size_t i = First(j - kColumns, kColumns); i < first; i += kLanes) {
        const Batch z = Batch::load_aligned(dot_z + i);
        for (int k = 0; k < kColumns; ++k) {
          sums[k] = xsimd::fma(z, Batch::load_aligned(next_columns[k] + i), sums[k]);
        }
      }
    }
    for (std::size_t i = first; i < end; i += kLanes) {
      Batch gain = Batch::load_aligned(update.gain + i);
      const Batch row_z = kDots == kUpdatedColumns ? Batch::load_aligned(dot_z + i) : Batch(Real{0});
      for (int k = 0; k < kColumns; ++k) {
        const Batch column = Batch::load_aligned(old_columns[k] + i);
        const Batch updated = xsimd::fma(gain, multipliers.p[k], column);
        updated.store_aligned(columns[k] + i);
        gain = xsimd::fma(column, multipliers.v[k], gain);
        if constexpr (kDots == kUpdatedColumns) sums[k] = xsimd::fma(row_z, updated, sums[k]);
      }
      gain.store_aligned(update.gain + i);
      if constexpr (kDots == kNextColumns) {
        const Batch z = Batch::load_aligned(dot_z + i);
        for (int k = 0; k < kColumns; ++k) {
          sums[k] = xsimd::fma(z, Batch::load_aligned(next_columns[k] + i), sums[k]);
        }
      }
    }
  }

  // Sample s of a block as a single step's arguments, on the updated factor.
  static FactorUpdateArguments<Real> SampleUpdate(const FactorBlockUpdateArguments<Real>& block, int s) {
    const std::size_t offset = static_cast<std::size_t>(s) * block.stride;
    return FactorUpdateArguments<Real>{block.updated_factor, block.scales, block.stride, block.dimension,
                                       block.z + offset, Real{1}, Real{1}, block.dimension - 1,
                                       block.gains + offset};
  }

  // Columns j, j - 1, ..., j - kColumns + 1 through the block's samples in
  // turn, each sample's scalars on the α its previous group left. Sample 0's
  // dot products are summed as Run sums them (a pass over the old columns,
  // which its update then reads), the others' in the previous sample's update.
  template <int kColumns>
  static void BlockGroup(const FactorBlockUpdateArguments<Real>& block, int j) {
    Batch sums[kColumns];
    Dots<kColumns>(SampleUpdate(block, 0), block.factor, j, sums);
    for (int s = 0; s < block.block_size; ++s) {
      const FactorUpdateArguments<Real> update = SampleUpdate(block, s);
      const Real* source = s == 0 ? block.factor : block.updated_factor;
      State state{block.denominators[s], block.inverse_alphas[s], block.min_scales[s]};
      const Multipliers<kColumns> multipliers = Constants<kColumns>(update, j, sums, state);
      block.denominators[s] = state.alpha;
      block.inverse_alphas[s] = state.inverse_alpha;
      block.min_scales[s] = state.smallest;
      if (s + 1 < block.block_size) {
        Update<kColumns, kUpdatedColumns>(update, source, j, multipliers, SampleUpdate(block, s + 1).z, sums);
      } else {
        Update<kColumns, kNoDots>(update, source, j, multipliers, nullptr, sums);
      }
    }
  }
};

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_FACTOR_UPDATE_KERNEL_H_
