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
// tests/lib/sincos_test.cpp over dense and random sweeps, and for float at every
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

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_SINCOS_KERNEL_H_
