// File: internal/sincos_contract.h
//
// The accuracy contract of the sin/cos kernels (internal/sincos_kernel.h), in
// ulp against the correctly rounded result, as tests/sincos_test.cpp checks
// it over sweeps and bench/sincos_exhaustive at every float argument of the
// fast range.
#ifndef RFFSTREAM_INTERNAL_SINCOS_CONTRACT_H_
#define RFFSTREAM_INTERNAL_SINCOS_CONTRACT_H_

namespace rffstream::internal {

// 2 ulp over the fast range. Near a zero of sin or cos the result is tiny and
// its ulp tinier than the error the reduction makes in r, so there the bound
// is absolute: one ulp of 1.
inline constexpr double kMaxUlpFastRange = 2.0;
// Beyond the fast range the slow path rounds libm's double result: 1 ulp
// covers libm's own error plus that rounding.
inline constexpr double kMaxUlpSlowPath = 1.0;
// The output scale of the Scaled* kernels is folded into the float
// polynomials' coefficients; the contract holds for scale·sin(x) as well
// (bench/sincos_exhaustive, every float argument: worst 1.43 ulp).
inline constexpr double kMaxUlpScaled = kMaxUlpFastRange;
// The cos-only path (the phase map) evaluates sin r over [-π/2, π/2] with
// one polynomial, whose r² term cancels up to 0.37 of the result: about one
// ulp more than the two-polynomial path. Measured worst: float, every
// argument (bench/sincos_exhaustive), 2.33 ulp with FMA and 2.78 without;
// double, 10^8 arguments half of them within 10^-3 of a multiple of π,
// 2.32 with FMA and 2.91 without (SSE2).
inline constexpr double kMaxUlpCosOnly = 3.5;

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_SINCOS_CONTRACT_H_
