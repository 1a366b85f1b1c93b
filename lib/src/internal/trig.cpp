#include "internal/trig.h"

#include <cmath>
#include <cstddef>

namespace rffstream::internal {

template <class Real>
void ScaledCosInPlace(std::span<Real> values, Real scale) {
  for (Real& value : values) value = scale * std::cos(value);
}

template <class Real>
void ScaledSinInPlace(std::span<Real> values, Real scale) {
  for (Real& value : values) value = scale * std::sin(value);
}

template <class Real>
void ScaledSinCosInPlace(std::span<Real> arguments_then_sin, std::span<Real> cos_out, Real scale) {
  for (std::size_t i = 0; i < arguments_then_sin.size(); ++i) {
    const Real argument = arguments_then_sin[i];
    cos_out[i] = scale * std::cos(argument);
    arguments_then_sin[i] = scale * std::sin(argument);
  }
}

template void ScaledCosInPlace<float>(std::span<float>, float);
template void ScaledCosInPlace<double>(std::span<double>, double);
template void ScaledSinInPlace<float>(std::span<float>, float);
template void ScaledSinInPlace<double>(std::span<double>, double);
template void ScaledSinCosInPlace<float>(std::span<float>, std::span<float>, float);
template void ScaledSinCosInPlace<double>(std::span<double>, std::span<double>, double);

}  // namespace rffstream::internal
