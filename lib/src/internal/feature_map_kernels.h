// File: internal/feature_map_kernels.h
//
// The feature map's kernels behind SimdKernelTable: the arguments ω·x + b of
// one sample's features and their cos/sin (FeatureMapArrayKernel), and of a
// block of samples at once, a register block of samples × batches of
// features (FeatureMapBlockKernel). Instantiated per instruction set in
// simd_kernels_<arch>.cpp; include it only from there.
#ifndef RFFSTREAM_INTERNAL_FEATURE_MAP_KERNELS_H_
#define RFFSTREAM_INTERNAL_FEATURE_MAP_KERNELS_H_

#include <algorithm>
#include <array>
#include <cstddef>

#include "internal/sincos_array_kernels.h"

namespace rffstream::internal {

template <class Real, class Arch>
struct FeatureMapArrayKernel {
  using Ops = SinCosBatch<Real, Arch>;
  using Batch = typename Ops::Batch;
  static constexpr int kLanes = static_cast<int>(Batch::size);

  static void Map(const FeatureMapKernelArguments<Real>& map, const double* x, int first,
                  int count, Real* cos_out, Real* sin_out) {
    // Separate instantiations let the compiler drop the unused half.
    if (cos_out == nullptr) {
      MapOutputs</*kCos=*/false, /*kSin=*/true>(map, x, first, count, cos_out, sin_out);
    } else if (sin_out == nullptr) {
      MapOutputs</*kCos=*/true, /*kSin=*/false>(map, x, first, count, cos_out, sin_out);
    } else {
      MapOutputs</*kCos=*/true, /*kSin=*/true>(map, x, first, count, cos_out, sin_out);
    }
  }

 private:
  // Two passes over the output, which stays in L1: the arguments first, then
  // sin/cos in place. Each pass keeps its own constants in registers (fused
  // into one loop they did not fit, and the polynomial constants were
  // reloaded from the stack for every batch).
  template <bool kCos, bool kSin>
  static void MapOutputs(const FeatureMapKernelArguments<Real>& map, const double* x, int first,
                         int count, Real* cos_out, Real* sin_out) {
    using Array = SinCosArrayKernels<Real, Arch>;
    const std::size_t n = static_cast<std::size_t>(count);
    if constexpr (kCos && kSin) {
      Project(map, x, first, count, sin_out);
      Array::ScaledSinCos(sin_out, cos_out, n, map.scale);
    } else if constexpr (kCos) {
      Project(map, x, first, count, cos_out);
      Array::ScaledCos(cos_out, n, map.scale);
    } else {
      Project(map, x, first, count, sin_out);
      Array::ScaledSin(sin_out, n, map.scale);
    }
  }

  // arguments[k] = offsets[first + k] + Σ_j x_j · projection[j][first + k],
  // summed in that order. Rows are padded to whole batches (see
  // BasicFeatureMap), so full loads are in bounds even for the last, partial
  // batch; `arguments` gets exactly `count` values. kGroup batches at a time
  // share each broadcast of x_j, and their independent chains cover the
  // multiply-add latency.
  static void Project(const FeatureMapKernelArguments<Real>& map, const double* x, int first,
                      int count, Real* arguments) {
    // The inputs, centred, rounded and filled once (Input()), wait on the
    // stack for every group of frequencies; too many for that space, they
    // go through Input() for each group.
    if (map.input_dimension <= kStagedInputs) {
      Real staged[kStagedInputs];
      for (int j = 0; j < map.input_dimension; ++j) staged[j] = map.Input(x, j);
      ProjectFrom(map, [&](int j) { return staged[j]; }, first, count, arguments);
    } else {
      ProjectFrom(map, [&](int j) { return map.Input(x, j); }, first, count, arguments);
    }
  }

  template <class Inputs>
  static void ProjectFrom(const FeatureMapKernelArguments<Real>& map, const Inputs& input_at,
                          int first, int count, Real* arguments) {
    const Real* projection = map.transposed_projection;
    int done = 0;
    for (; done + kGroup * kLanes <= count; done += kGroup * kLanes) {
      const int i = first + done;
      Batch argument[kGroup];
      for (int g = 0; g < kGroup; ++g) argument[g] = Batch::load_unaligned(map.offsets + i + g * kLanes);
      for (int j = 0; j < map.input_dimension; ++j) {
        const Real value = input_at(j);
        // A zero adds exactly nothing: one-hot and sparse inputs cost only
        // their non-zero entries (+0 + ±0 is +0, so the bits are Map()'s).
        if (value == Real{0}) continue;
        const Batch input(value);
        const Real* row = projection + j * map.stride + i;
        for (int g = 0; g < kGroup; ++g) {
          argument[g] = xsimd::fma(input, Batch::load_unaligned(row + g * kLanes), argument[g]);
        }
      }
      for (int g = 0; g < kGroup; ++g) argument[g].store_unaligned(arguments + done + g * kLanes);
    }
    for (; done < count; done += kLanes) {
      const int i = first + done;
      Batch argument = Batch::load_unaligned(map.offsets + i);
      for (int j = 0; j < map.input_dimension; ++j) {
        const Real value = input_at(j);
        if (value == Real{0}) continue;
        argument = xsimd::fma(Batch(value), Batch::load_unaligned(projection + j * map.stride + i),
                              argument);
      }
      SinCosArrayKernels<Real, Arch>::Put(arguments, static_cast<std::size_t>(done),
                                          static_cast<std::size_t>(std::min(kLanes, count - done)),
                                          argument);
    }
  }

  static constexpr int kStagedInputs = 4096 / static_cast<int>(sizeof(Real));
  static constexpr int kGroup = 8;
};

template <class Real, class Arch>
struct FeatureMapBlockKernel {
  using Batch = typename SinCosBatch<Real, Arch>::Batch;
  using Array = SinCosArrayKernels<Real, Arch>;
  static constexpr int kLanes = static_cast<int>(Batch::size);
  // A register block of kRowsPerGroup samples × kBatchesPerGroup batches of
  // frequencies: each input load feeds kBatchesPerGroup multiply-adds, each
  // projection load kRowsPerGroup, and the independent accumulators cover
  // the multiply-add latency on two ports. AVX-512 has 32 vector registers
  // and takes 8 rows (16 accumulators: d = 64 went from 1.21× to 1.16× the
  // GEMM's time, d = 256 from 1.15× to 1.07×); the others have 16 and take 4.
  // Each argument is summed in the same order as Map() (offset, then
  // x_0 w_0, x_1 w_1, ...), so every row equals Map() of that row exactly.
  static constexpr int kRowsPerGroup = std::is_base_of_v<xsimd::avx512f, Arch> ? 8 : 4;
  static constexpr int kBatchesPerGroup = 2;
  static constexpr std::size_t kProjectionTileBytes = 512 * 1024;

  // A group of rows' inputs, centred, rounded and filled once (Input()),
  // waits on the stack for every pass of the projection over them, in
  // chunks of at most this many values.
  static constexpr int kStagedValues = 16 * 1024 / static_cast<int>(sizeof(Real));
  static constexpr int kChunkInputs = kStagedValues / kRowsPerGroup;

  static void MapBlock(const FeatureMapKernelArguments<Real>& map, const double* inputs, int rows,
                       int frequencies, Real* cos_out, Real* sin_out, std::size_t output_stride) {
    const int d = map.input_dimension;
    // The arguments go into the output (the sines' half for the pair map),
    // then sin/cos replace them in place, as in the single-sample map.
    Real* const arguments = sin_out != nullptr ? sin_out : cos_out;
    // Frequencies in tiles whose strip of the projection stays in the L2
    // cache while every group of rows passes over it.
    constexpr int kStep = kBatchesPerGroup * kLanes;
    const int tile = std::max(
        kStep, static_cast<int>(kProjectionTileBytes / (sizeof(Real) * d)) / kStep * kStep);
    const int grouped_rows = rows / kRowsPerGroup * kRowsPerGroup;
    alignas(64) Real staged[kStagedValues];
    for (int tile_first = 0; tile_first < frequencies; tile_first += tile) {
      const int tile_end = std::min(frequencies, tile_first + tile);
      for (int row = 0; row < grouped_rows; row += kRowsPerGroup) {
        const double* x = inputs + static_cast<std::size_t>(row) * d;
        Real* const row_arguments = arguments + static_cast<std::size_t>(row) * output_stride;
        // Wide inputs in chunks: the sums go to the output between them and
        // come back, each still one Real, so the bits stay Map()'s.
        for (int chunk_first = 0; chunk_first < d; chunk_first += kChunkInputs) {
          const int chunk = std::min(kChunkInputs, d - chunk_first);
          for (int r = 0; r < kRowsPerGroup; ++r) {
            for (int j = 0; j < chunk; ++j) {
              staged[r * chunk + j] = map.Input(x + r * d, chunk_first + j);
            }
          }
          for (int i = tile_first; i < tile_end; i += kStep) {
            ProjectGroup(map, staged, chunk_first, chunk, i, tile_end, row_arguments,
                         output_stride);
          }
        }
        // sin/cos in place over the tile of each row, while it is in cache.
        for (int r = 0; r < kRowsPerGroup; ++r) {
          const std::size_t start = static_cast<std::size_t>(row + r) * output_stride + tile_first;
          const auto n = static_cast<std::size_t>(tile_end - tile_first);
          if (sin_out != nullptr) {
            Array::ScaledSinCos(sin_out + start, cos_out + start, n, map.scale);
          } else {
            Array::ScaledCos(cos_out + start, n, map.scale);
          }
        }
      }
    }
    for (int row = grouped_rows; row < rows; ++row) {
      const std::size_t base = static_cast<std::size_t>(row) * output_stride;
      FeatureMapArrayKernel<Real, Arch>::Map(map, inputs + static_cast<std::size_t>(row) * d, 0,
                                             frequencies, cos_out + base,
                                             sin_out != nullptr ? sin_out + base : nullptr);
    }
  }

 private:
  // The arguments of the kRowsPerGroup rows whose inputs chunk_first ..
  // chunk_first + chunk - 1 are `staged` (a row of `chunk` values each) at
  // one step of frequencies from `first`, into each row's `arguments` (rows
  // `output_stride` apart) below `tile_end`: from the phases for the first
  // chunk, else from what the chunk before stored there. Rows are padded to
  // whole batches plus one (PaddedLength), so the loads of a partial last
  // pair of batches stay in bounds.
  static void ProjectGroup(const FeatureMapKernelArguments<Real>& map, const Real* staged,
                           int chunk_first, int chunk, int first, int tile_end, Real* arguments,
                           std::size_t output_stride) {
    Batch argument[kRowsPerGroup][kBatchesPerGroup];
    for (int b = 0; b < kBatchesPerGroup; ++b) {
      const int batch_first = first + b * kLanes;
      const Batch offset = Batch::load_unaligned(map.offsets + batch_first);
      for (int r = 0; r < kRowsPerGroup; ++r) {
        argument[r][b] = chunk_first == 0 || batch_first >= tile_end
                             ? offset
                             : Sums(arguments + static_cast<std::size_t>(r) * output_stride,
                                    batch_first, std::min(kLanes, tile_end - batch_first));
      }
    }
    for (int j = 0; j < chunk; ++j) {
      const Real* weights = map.transposed_projection + (chunk_first + j) * map.stride + first;
      Batch weight[kBatchesPerGroup];
      for (int b = 0; b < kBatchesPerGroup; ++b) weight[b] = Batch::load_unaligned(weights + b * kLanes);
      for (int r = 0; r < kRowsPerGroup; ++r) {
        const Batch input(staged[r * chunk + j]);
        for (int b = 0; b < kBatchesPerGroup; ++b) {
          argument[r][b] = xsimd::fma(input, weight[b], argument[r][b]);
        }
      }
    }
    for (int r = 0; r < kRowsPerGroup; ++r) {
      Real* row_arguments = arguments + static_cast<std::size_t>(r) * output_stride;
      for (int b = 0; b < kBatchesPerGroup; ++b) {
        const int batch_first = first + b * kLanes;
        if (batch_first >= tile_end) break;
        Array::Put(row_arguments, static_cast<std::size_t>(batch_first),
                   static_cast<std::size_t>(std::min(kLanes, tile_end - batch_first)),
                   argument[r][b]);
      }
    }
  }

  // The `lanes` sums a chunk stored at row_arguments + batch_first (Put's
  // counterpart: a partial batch is not read past its end).
  static Batch Sums(const Real* row_arguments, int batch_first, int lanes) {
    if (lanes == kLanes) return Batch::load_unaligned(row_arguments + batch_first);
    alignas(64) Real buffer[kLanes] = {};
    std::copy_n(row_arguments + batch_first, lanes, buffer);
    return Batch::load_aligned(buffer);
  }
};

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_FEATURE_MAP_KERNELS_H_
