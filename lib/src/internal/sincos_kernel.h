// File: internal/sincos_kernel.h
//
// The vectorized sin/cos of the feature map, written once on xsimd batches and
// instantiated per instruction set in simd_kernels_<arch>.cpp, each compiled with
// only that file's flags. Include this header only from those files.
//
// Method: x = q·π/2 + r with q = nearest integer to x·2/π and r in [-π/4, π/4]
// (Cody–Waite reduction with a three-part π/2 whose leading parts multiply q
// exactly), minimax polynomials for sin r and cos r (Cephes for float, fdlibm
// for double), then the quadrant q mod 4 swaps and negates them, branch-free.
//
// The cos-only path of the phase map (FastCos) saves the second polynomial
// and the select: q is the odd integer nearest to x·2/π, so r lies in
// [-π/2, π/2] and cos x = ∓sin r, with one longer polynomial for sin r on
// that interval (fitted by wide_sin_fit.py).
//
// Contract, against the correctly rounded sin/cos (checked by
// tests/sincos_test.cpp over dense and random sweeps, and for float at every
// argument of the fast range by bench/sincos_exhaustive: worst 1.39 ulp with
// FMA, 1.47 without):
//   float:  ≤ 2 ulp (or 2^-24 absolute near zeros of sin/cos) for |x| ≤ kFastRange<float>  = 1e4
//   double: ≤ 2 ulp (or 2^-53 absolute near zeros)            for |x| ≤ kFastRange<double> = 1e6
// and the same for the scaled outputs s·sin x, s·cos x of the array kernels
// against the correctly rounded s·sin x (the float scale is folded into the
// polynomial coefficients). The cos-only path: ≤ 3.5 ulp (or the absolute
// bound) over the same ranges; its r² term cancels up to 0.37 of the result
// near r = ±π/2, which costs about one ulp more than the two-polynomial path
// (worst 2.33 ulp float and 2.32 double with FMA, 2.78 and 2.91 without).
// A vector with any lane beyond the fast range, NaN or ±Inf takes a per-lane
// slow path through double-precision std::sin/std::cos: correct everywhere,
// NaN for NaN and ±Inf. No -ffast-math: it would break the reduction.
#ifndef RFFSTREAM_INTERNAL_SINCOS_KERNEL_H_
#define RFFSTREAM_INTERNAL_SINCOS_KERNEL_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "internal/simd_kernels.h"
#include "xsimd/xsimd.hpp"

namespace rffstream::internal {

template <class Real>
struct SinCosConstants;

template <>
struct SinCosConstants<float> {
  static constexpr float kFastRange = 1e4f;
  static constexpr float kTwoOverPi = 0.636619772367581343f;
  // π/2 = kPiOver2High + kPiOver2Middle + kPiOver2Low; the first two have 8 and
  // 11 significant bits, so q·part is exact for |q| < 2^13 (|x| < 12867).
  static constexpr float kPiOver2High = 1.5703125f;
  static constexpr float kPiOver2Middle = 4.837512969970703125e-4f;
  static constexpr float kPiOver2Low = 7.54978995489188216e-8f;
  static constexpr float kOneOverPi = 0.318309886183790671538f;
  // sin r = r + r³·P(r²) for |r| ≤ π/2, P's coefficients from the lowest
  // degree (the cos-only path; wide_sin_fit.py, 0.27 ulp).
  static constexpr std::array<float, 5> kWideSin = {
      -1.66666671633720398e-01f, 8.33333376795053482e-03f, -1.98412250028923154e-04f,
      2.75470506494457368e-06f, -2.43249935749645374e-08f};
};

template <>
struct SinCosConstants<double> {
  static constexpr double kFastRange = 1e6;
  static constexpr double kTwoOverPi = 0.63661977236758134308;
  // fdlibm's 33-bit parts of π/2: q·part is exact for |q| < 2^20.
  static constexpr double kPiOver2High = 1.57079632673412561417e+00;
  static constexpr double kPiOver2Middle = 6.07710050630396597660e-11;
  static constexpr double kPiOver2Low = 2.02226624879595063154e-21;
  static constexpr double kOneOverPi = 0.318309886183790671538;
  // As for float, to degree 17 (wide_sin_fit.py, 0.11 ulp).
  static constexpr std::array<double, 8> kWideSin = {
      -1.66666666666666657e-01, 8.33333333333323781e-03, -1.98412698412209166e-04,
      2.75573192125908853e-06, -2.50521069658919479e-08, 1.60589427677361114e-10,
      -7.64303691174557407e-13, 2.72135672611960613e-15};
};

template <class Real, class Arch>
struct SinCosBatch {
  using Batch = xsimd::batch<Real, Arch>;
  using IntBatch = xsimd::batch<xsimd::as_integer_t<Real>, Arch>;
  using Constants = SinCosConstants<Real>;
  // 1.5·2^23 (float), 1.5·2^52 (double); exact q for |x·2/π| < 2^22 (2^51).
  static constexpr Real kRoundingShift =
      std::is_same_v<Real, float> ? Real(12582912.0f) : Real(6755399441055744.0);
  static constexpr int kExponentShift = std::is_same_v<Real, float> ? 29 : 60;

  // The output scale s, folded into the float polynomials' coefficients and
  // evaluated by Horner's rule to the end (s·sin r = r·(s + r²·(s·p(r²))),
  // s·cos r = s + r²·(-s/2 + r²·(s·q(r²)))), which saves the final multiply
  // and the separate r³ and r⁴ products; double keeps fdlibm's compensated
  // cos exact and multiplies at the end.
  struct Scale {
    explicit Scale(Real s)
        : factor(s),
          minus_half(Real(-0.5) * s),
          sin2(Real(-1.9515295891e-4) * s),
          sin1(Real(8.3321608736e-3) * s),
          sin0(Real(-1.6666654611e-1) * s),
          cos2(Real(2.443315711809948e-5) * s),
          cos1(Real(-1.388731625493765e-3) * s),
          cos0(Real(4.166664568298827e-2) * s) {
      for (std::size_t k = 0; k < wide_sin.size(); ++k) {
        wide_sin[k] = Batch(Constants::kWideSin[k] * s);
      }
    }
    Batch factor, minus_half, sin2, sin1, sin0, cos2, cos1, cos0;
    // s·sin r = r·(s + r²·(s·P(r²))) for |r| ≤ π/2 (the cos-only path).
    std::array<Batch, Constants::kWideSin.size()> wide_sin;
  };

  static Batch SinPolynomial(Batch r, Batch r2, const Scale& scale) {
    if constexpr (std::is_same_v<Real, float>) {
      Batch p = xsimd::fma(r2, scale.sin2, scale.sin1);
      p = xsimd::fma(r2, p, scale.sin0);
      return r * xsimd::fma(r2, p, scale.factor);
    } else {
      Batch p = xsimd::fma(r2, Batch(1.58969099521155010221e-10), Batch(-2.50507602534068634195e-08));
      p = xsimd::fma(r2, p, Batch(2.75573137070700676789e-06));
      p = xsimd::fma(r2, p, Batch(-1.98412698298579493134e-04));
      p = xsimd::fma(r2, p, Batch(8.33333333332248946124e-03));
      p = xsimd::fma(r2, p, Batch(-1.66666666666666324348e-01));
      return xsimd::fma(r * r2, p, r) * scale.factor;
    }
  }

  static Batch CosPolynomial(Batch r2, const Scale& scale) {
    if constexpr (std::is_same_v<Real, float>) {
      Batch p = xsimd::fma(r2, scale.cos2, scale.cos1);
      p = xsimd::fma(r2, p, scale.cos0);
      p = xsimd::fma(r2, p, scale.minus_half);
      return xsimd::fma(r2, p, scale.factor);
    } else {
      Batch p = xsimd::fma(r2, Batch(-1.13596475577881948265e-11), Batch(2.08757232129817482790e-09));
      p = xsimd::fma(r2, p, Batch(-2.75573143513906633035e-07));
      p = xsimd::fma(r2, p, Batch(2.48015872894767294178e-05));
      p = xsimd::fma(r2, p, Batch(-1.38888888888741095749e-03));
      p = xsimd::fma(r2, p, Batch(4.16666666666666019037e-02));
      // 1 - r²/2 loses up to half an ulp; fdlibm's compensation recovers it.
      const Batch half_r2 = Batch(0.5) * r2;
      const Batch w = Batch(1.0) - half_r2;
      return (w + (((Batch(1.0) - w) - half_r2) + r2 * r2 * p)) * scale.factor;
    }
  }

  // s·sin x and s·cos x for lanes in the fast range (others are garbage).
  static void Fast(Batch x, const Scale& scale, Batch& sin_x, Batch& cos_x) {
    // Adding 1.5·2^(mantissa bits) rounds x·2/π to the nearest integer q and
    // leaves q's low bits, two's complement, in the low bits of the sum: no
    // rounding or int/float conversion instructions.
    const Batch shifted = xsimd::fma(x, Batch(Constants::kTwoOverPi), Batch(kRoundingShift));
    const Batch q = shifted - Batch(kRoundingShift);
    // Negated constants: xsimd 8.1 has no AVX-512 fnma (it would negate q).
    Batch r = xsimd::fma(q, Batch(-Constants::kPiOver2High), x);
    r = xsimd::fma(q, Batch(-Constants::kPiOver2Middle), r);
    r = xsimd::fma(q, Batch(-Constants::kPiOver2Low), r);
    const Batch r2 = r * r;
    const Batch sin_r = SinPolynomial(r, r2, scale);
    const Batch cos_r = CosPolynomial(r2, scale);
    const IntBatch quadrant = xsimd::bitwise_cast<IntBatch>(shifted);
    constexpr int kSignShift = 8 * sizeof(Real) - 2;  // bit 1 of q -> the sign bit
    // Odd quadrants swap sin and cos; bit 1 of q (of q + 1) negates sin (cos).
    const auto swap = OddQuadrant(quadrant);
    // Shift first, then mask: the mask and the xor fuse (vpternlog on AVX-512).
    const Batch sign_bit(Real(-0.0));
    const Batch sin_sign = xsimd::bitwise_cast<Batch>(quadrant << kSignShift);
    const Batch cos_sign = xsimd::bitwise_cast<Batch>((quadrant + IntBatch(1)) << kSignShift);
    sin_x = xsimd::select(swap, cos_r, sin_r) ^ (sin_sign & sign_bit);
    cos_x = xsimd::select(swap, sin_r, cos_r) ^ (cos_sign & sign_bit);
  }

  // s·cos x alone, for lanes in the fast range (others are garbage).
  static Batch FastCos(Batch x, const Scale& scale) {
    // n = round(x/π - 1/2) by the rounding shift, q = 2n + 1 (exact).
    const Batch shifted =
        xsimd::fma(x, Batch(Constants::kOneOverPi), Batch(Real(-0.5))) + Batch(kRoundingShift);
    const Batch q = xsimd::fma(shifted - Batch(kRoundingShift), Batch(Real(2)), Batch(Real(1)));
    Batch r = xsimd::fma(q, Batch(-Constants::kPiOver2High), x);
    r = xsimd::fma(q, Batch(-Constants::kPiOver2Middle), r);
    r = xsimd::fma(q, Batch(-Constants::kPiOver2Low), r);
    const Batch r2 = r * r;
    constexpr std::size_t kTerms = Constants::kWideSin.size();
    Batch p = scale.wide_sin[kTerms - 1];
    for (std::size_t k = kTerms - 1; k-- > 0;) p = xsimd::fma(r2, p, scale.wide_sin[k]);
    const Batch sin_r = r * xsimd::fma(r2, p, scale.factor);
    // cos(qπ/2 + r) = -sin(qπ/2)·sin r: negative for n even (q ≡ 1 mod 4).
    const IntBatch n = xsimd::bitwise_cast<IntBatch>(shifted);
    const Batch sign = xsimd::bitwise_cast<Batch>((n + IntBatch(1)) << (8 * sizeof(Real) - 1));
    return sin_r ^ (sign & Batch(Real(-0.0)));
  }

  // Lanes with q odd, as a mask for Batch. On AVX-512 one vptestm writes the
  // mask register directly (xsimd 8.1 has no test, and GCC does not fuse the
  // and + compare); elsewhere bit 0 moved into the exponent makes a normal
  // nonzero number (so the test holds with denormals flushed to zero).
  static auto OddQuadrant(IntBatch quadrant) {
    using Mask = typename Batch::batch_bool_type;
    if constexpr (std::is_base_of_v<xsimd::avx512f, Arch>) {
      if constexpr (std::is_same_v<Real, float>) {
        return Mask(_mm512_test_epi32_mask(quadrant, IntBatch(1)));
      } else {
        return Mask(_mm512_test_epi64_mask(quadrant, IntBatch(1)));
      }
    } else {
      return xsimd::bitwise_cast<Batch>((quadrant & IntBatch(1)) << kExponentShift) != Batch(0);
    }
  }

  static bool NeedsSlowPath(Batch x) {
    // !(|x| <= range) is also true for NaN.
    return xsimd::any(!(xsimd::abs(x) <= Batch(Constants::kFastRange)));
  }
};

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

template <class Real, class Arch>
struct FeatureMapArrayKernel {
  using Ops = SinCosBatch<Real, Arch>;
  using Batch = typename Ops::Batch;
  static constexpr int kLanes = static_cast<int>(Batch::size);

  static void Map(const FeatureMapKernelArguments<Real>& map, const Real* x, int first, int count,
                  Real* cos_out, Real* sin_out) {
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
  static void MapOutputs(const FeatureMapKernelArguments<Real>& map, const Real* x, int first,
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
  static void Project(const FeatureMapKernelArguments<Real>& map, const Real* x, int first,
                      int count, Real* arguments) {
    const Real* projection = map.transposed_projection;
    int done = 0;
    for (; done + kGroup * kLanes <= count; done += kGroup * kLanes) {
      const int i = first + done;
      Batch argument[kGroup];
      for (int g = 0; g < kGroup; ++g) argument[g] = Batch::load_unaligned(map.offsets + i + g * kLanes);
      for (int j = 0; j < map.input_dimension; ++j) {
        const Real value = map.Input(x, j);
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
        const Real value = map.Input(x, j);
        if (value == Real{0}) continue;
        argument = xsimd::fma(Batch(value), Batch::load_unaligned(projection + j * map.stride + i),
                              argument);
      }
      SinCosArrayKernels<Real, Arch>::Put(arguments, static_cast<std::size_t>(done),
                                          static_cast<std::size_t>(std::min(kLanes, count - done)),
                                          argument);
    }
  }

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

  static void MapBlock(const FeatureMapKernelArguments<Real>& map, const Real* inputs, int rows,
                       int frequencies, Real* cos_out, Real* sin_out, std::size_t output_stride) {
    // The inner loop reads a missing value's fill only when the block has
    // one: one pass over the inputs against a compare per multiply-add group.
    const std::size_t values = static_cast<std::size_t>(rows) * map.input_dimension;
    if (std::any_of(inputs, inputs + values, [](Real value) { return value != value; })) {
      MapBlockOf<true>(map, inputs, rows, frequencies, cos_out, sin_out, output_stride);
    } else {
      MapBlockOf<false>(map, inputs, rows, frequencies, cos_out, sin_out, output_stride);
    }
  }

 private:
  template <bool kMissing>
  static void MapBlockOf(const FeatureMapKernelArguments<Real>& map, const Real* inputs, int rows,
                         int frequencies, Real* cos_out, Real* sin_out,
                         std::size_t output_stride) {
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
    for (int tile_first = 0; tile_first < frequencies; tile_first += tile) {
      const int tile_end = std::min(frequencies, tile_first + tile);
      for (int row = 0; row < grouped_rows; row += kRowsPerGroup) {
        const Real* x = inputs + static_cast<std::size_t>(row) * d;
        // Rows are padded to whole batches plus one (PaddedLength), so the
        // loads of a partial last pair of batches stay in bounds.
        for (int i = tile_first; i < tile_end; i += kStep) {
          Batch argument[kRowsPerGroup][kBatchesPerGroup];
          for (int b = 0; b < kBatchesPerGroup; ++b) {
            const Batch offset = Batch::load_unaligned(map.offsets + i + b * kLanes);
            for (int r = 0; r < kRowsPerGroup; ++r) argument[r][b] = offset;
          }
          for (int j = 0; j < d; ++j) {
            const Real* weights = map.transposed_projection + j * map.stride + i;
            Batch weight[kBatchesPerGroup];
            for (int b = 0; b < kBatchesPerGroup; ++b)
              weight[b] = Batch::load_unaligned(weights + b * kLanes);
            for (int r = 0; r < kRowsPerGroup; ++r) {
              const Batch input(kMissing ? map.Input(x + r * d, j) : x[r * d + j]);
              for (int b = 0; b < kBatchesPerGroup; ++b) {
                argument[r][b] = xsimd::fma(input, weight[b], argument[r][b]);
              }
            }
          }
          for (int r = 0; r < kRowsPerGroup; ++r) {
            Real* row_arguments = arguments + static_cast<std::size_t>(row + r) * output_stride;
            for (int b = 0; b < kBatchesPerGroup; ++b) {
              const int first = i + b * kLanes;
              if (first >= tile_end) break;
              Array::Put(row_arguments, static_cast<std::size_t>(first),
                         static_cast<std::size_t>(std::min(kLanes, tile_end - first)),
                         argument[r][b]);
            }
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
};

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_SINCOS_KERNEL_H_
