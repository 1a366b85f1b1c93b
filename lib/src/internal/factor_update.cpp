#include "internal/factor_update.h"

#include "internal/simd_kernels.h"

namespace rffstream::internal {

template <>
float UpdateFactor(const FactorUpdateArguments<float>& update, float* min_scale) {
  return ActiveSimdKernelTable().update_factor_float(update, min_scale);
}

template <>
double UpdateFactor(const FactorUpdateArguments<double>& update, double* min_scale) {
  return ActiveSimdKernelTable().update_factor_double(update, min_scale);
}

}  // namespace rffstream::internal
