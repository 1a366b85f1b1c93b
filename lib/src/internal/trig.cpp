#include "internal/trig.h"

#include "internal/sincos_kernels.h"

namespace rffstream::internal {

template <>
void ScaledCosInPlace<float>(std::span<float> values, float scale) {
  ActiveSinCosKernels().scaled_cos_float(values.data(), values.size(), scale);
}
template <>
void ScaledCosInPlace<double>(std::span<double> values, double scale) {
  ActiveSinCosKernels().scaled_cos_double(values.data(), values.size(), scale);
}
template <>
void ScaledSinInPlace<float>(std::span<float> values, float scale) {
  ActiveSinCosKernels().scaled_sin_float(values.data(), values.size(), scale);
}
template <>
void ScaledSinInPlace<double>(std::span<double> values, double scale) {
  ActiveSinCosKernels().scaled_sin_double(values.data(), values.size(), scale);
}
template <>
void ScaledSinCosInPlace<float>(std::span<float> arguments_then_sin, std::span<float> cos_out,
                                float scale) {
  ActiveSinCosKernels().scaled_sincos_float(arguments_then_sin.data(), cos_out.data(),
                                            arguments_then_sin.size(), scale);
}
template <>
void ScaledSinCosInPlace<double>(std::span<double> arguments_then_sin, std::span<double> cos_out,
                                 double scale) {
  ActiveSinCosKernels().scaled_sincos_double(arguments_then_sin.data(), cos_out.data(),
                                             arguments_then_sin.size(), scale);
}

}  // namespace rffstream::internal
