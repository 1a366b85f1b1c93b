// File: internal/trig.h
//
// The trigonometric step of the feature map, applied in place to arguments the
// projection has already written, through the SIMD kernel chosen at run time
// (internal/sincos_kernels.h; accuracy contract in internal/sincos_kernel.h).
#ifndef RFFSTREAM_INTERNAL_TRIG_H_
#define RFFSTREAM_INTERNAL_TRIG_H_

#include <span>

namespace rffstream::internal {

// values[i] = scale * cos(values[i]).
template <class Real>
void ScaledCosInPlace(std::span<Real> values, Real scale);

// values[i] = scale * sin(values[i]).
template <class Real>
void ScaledSinInPlace(std::span<Real> values, Real scale);

// With a = arguments_then_sin[i] on entry: cos_out[i] = scale * cos(a) and
// arguments_then_sin[i] = scale * sin(a).
// REQUIRES: cos_out.size() == arguments_then_sin.size(), no overlap.
template <class Real>
void ScaledSinCosInPlace(std::span<Real> arguments_then_sin, std::span<Real> cos_out, Real scale);

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_TRIG_H_
