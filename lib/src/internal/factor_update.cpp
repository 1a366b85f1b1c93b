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

template <>
void UpdateFactorBlock(const FactorBlockUpdateArguments<float>& block) {
  ActiveSimdKernelTable().update_factor_block_float(block);
}

template <>
void UpdateFactorBlock(const FactorBlockUpdateArguments<double>& block) {
  ActiveSimdKernelTable().update_factor_block_double(block);
}

}  // namespace rffstream::internal
