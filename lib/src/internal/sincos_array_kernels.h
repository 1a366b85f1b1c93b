// File: internal/sincos_array_kernels.h
//
// The sin/cos of whole arrays, scaled (s·sin x, s·cos x), behind
// SimdKernelTable: SinCosBatch (sincos_kernel.h) over full batches, the
// tail through a zero-padded batch so that every element gets the same
// arithmetic. Instantiated per instruction set in simd_kernels_<arch>.cpp;
// include it only from there.
#ifndef RFFSTREAM_INTERNAL_SINCOS_ARRAY_KERNELS_H_
#define RFFSTREAM_INTERNAL_SINCOS_ARRAY_KERNELS_H_

#include <algorithm>
#include <array>
#include <cstddef>

#include "internal/sincos_kernel.h"

namespace rffstream::internal {

// The array kernels behind SimdKernelTable, for one instruction set.
template <class Real, class Arch>
struct SinCosArrayKernels {
  using Ops = SinCosBatch<Real, Arch>;
  using Batch = typename Ops::Batch;
  static constexpr std::size_t kLanes = Batch::size;

  // What a pass needs: both (ScaledSin shares the sin/cos algorithm, so that
  // its results equal ScaledSinCos's), or cos alone by the cos-only path.
  enum class Outputs { kSinAndCos, kCosOnly };

  // Calls store(offset, lanes, s·sin, s·cos) for whole batches, the tail through a
  // zero-padded stack batch, so that every element gets the same arithmetic
  // (with kCosOnly the sin argument is the cos).
  template <Outputs kOutputs, class Store>
  static void ForEachBatch(const Real* arguments, std::size_t count, Real scale, Store&& store) {
    const typename Ops::Scale scaling(scale);
    std::size_t i = 0;
    for (; i + kLanes <= count; i += kLanes) {
      Compute<kOutputs>(Batch::load_unaligned(arguments + i), scaling, i, kLanes, store);
    }
    if (i < count) {
      alignas(64) Real tail[kLanes] = {};
      for (std::size_t k = i; k < count; ++k) tail[k - i] = arguments[k];
      Compute<kOutputs>(Batch::load_aligned(tail), scaling, i, count - i, store);
    }
  }

  template <Outputs kOutputs>
  static void Evaluate(Batch x, const typename Ops::Scale& scale, Batch& sin_x, Batch& cos_x) {
    if constexpr (kOutputs == Outputs::kCosOnly) {
      cos_x = Ops::FastCos(x, scale);
      sin_x = cos_x;
    } else {
      Ops::Fast(x, scale, sin_x, cos_x);
    }
  }

  // store(offset, lanes, s·sin x, s·cos x).
  template <Outputs kOutputs, class Store>
  static void Compute(Batch x, const typename Ops::Scale& scale, std::size_t offset,
                      std::size_t lanes, Store&& store) {
    Batch sin_x, cos_x;
    Evaluate<kOutputs>(x, scale, sin_x, cos_x);
    if (Ops::NeedsSlowPath(x)) [[unlikely]] {
      Batch slow_sin, slow_cos;
      SlowPath<kOutputs>(x, scale, slow_sin, slow_cos);
      sin_x = slow_sin;
      cos_x = slow_cos;
    }
    store(offset, lanes, sin_x, cos_x);
  }

  // sin and cos of a batch with lanes beyond the fast range, NaN or ±Inf:
  // those lanes through double-precision libm, the others as in the fast
  // path. Out of line and cold, and with outputs of its own, so that the hot
  // loop neither keeps its constants in memory across the call (every vector
  // register is caller-saved) nor stores its results to the stack.
  template <Outputs kOutputs>
  [[gnu::noinline, gnu::cold]] static void SlowPath(Batch x, const typename Ops::Scale& scale,
                                                    Batch& sin_x, Batch& cos_x) {
    Evaluate<kOutputs>(x, scale, sin_x, cos_x);
    const Real factor = scale.factor.get(0);
    alignas(64) Real x_lanes[kLanes], sin_lanes[kLanes], cos_lanes[kLanes];
    x.store_aligned(x_lanes);
    sin_x.store_aligned(sin_lanes);
    cos_x.store_aligned(cos_lanes);
    for (std::size_t k = 0; k < kLanes; ++k) {
      if (!(std::abs(x_lanes[k]) <= Ops::Constants::kFastRange)) {
        sin_lanes[k] = factor * static_cast<Real>(std::sin(static_cast<double>(x_lanes[k])));
        cos_lanes[k] = factor * static_cast<Real>(std::cos(static_cast<double>(x_lanes[k])));
      }
    }
    sin_x = Batch::load_aligned(sin_lanes);
    cos_x = Batch::load_aligned(cos_lanes);
  }

  // Writes whole batches directly, a partial one lane by lane.
  static void Put(Real* out, std::size_t offset, std::size_t lanes, Batch value) {
    if (lanes == kLanes) {
      value.store_unaligned(out + offset);
      return;
    }
    alignas(64) Real buffer[kLanes];
    value.store_aligned(buffer);
    for (std::size_t k = 0; k < lanes; ++k) out[offset + k] = buffer[k];
  }

  static void ScaledCos(Real* values, std::size_t count, Real scale) {
    ForEachBatch<Outputs::kCosOnly>(values, count, scale,
                 [&](std::size_t offset, std::size_t lanes, Batch, Batch cos_x) {
                   Put(values, offset, lanes, cos_x);
                 });
  }

  static void ScaledSin(Real* values, std::size_t count, Real scale) {
    ForEachBatch<Outputs::kSinAndCos>(values, count, scale,
                 [&](std::size_t offset, std::size_t lanes, Batch sin_x, Batch) {
                   Put(values, offset, lanes, sin_x);
                 });
  }

  static void ScaledSinCos(Real* arguments_then_sin, Real* cos_out, std::size_t count, Real scale) {
    ForEachBatch<Outputs::kSinAndCos>(arguments_then_sin, count, scale,
                 [&](std::size_t offset, std::size_t lanes, Batch sin_x, Batch cos_x) {
                   Put(cos_out, offset, lanes, cos_x);
                   Put(arguments_then_sin, offset, lanes, sin_x);
                 });
  }
};

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_SINCOS_ARRAY_KERNELS_H_
