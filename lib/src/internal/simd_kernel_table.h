// File: internal/simd_kernel_table.h
//
// Fills a SimdKernelTable with the xsimd kernels of one instruction set.
// Include this header only from the simd_kernels_<arch>.cpp files, each
// compiled with that instruction set's flags only, after defining
// RFFSTREAM_EIGEN_NAMESPACE (see block_update_kernel.h).
#ifndef RFFSTREAM_INTERNAL_SIMD_KERNEL_TABLE_H_
#define RFFSTREAM_INTERNAL_SIMD_KERNEL_TABLE_H_

#include "internal/block_update_kernel.h"
#include "internal/factor_update_kernel.h"
#include "internal/information_update_kernel.h"
#include "internal/simd_kernels.h"
#include "internal/feature_map_kernels.h"
#include "internal/symmetric_update_kernel.h"

namespace rffstream::internal {

template <class Arch>
constexpr SimdKernelTable MakeSimdKernelTable(const char* name) {
  return SimdKernelTable{
      name,
      &SinCosArrayKernels<float, Arch>::ScaledCos,
      &SinCosArrayKernels<double, Arch>::ScaledCos,
      &SinCosArrayKernels<float, Arch>::ScaledSin,
      &SinCosArrayKernels<double, Arch>::ScaledSin,
      &SinCosArrayKernels<float, Arch>::ScaledSinCos,
      &SinCosArrayKernels<double, Arch>::ScaledSinCos,
      &FeatureMapArrayKernel<float, Arch>::Map,
      &FeatureMapArrayKernel<double, Arch>::Map,
      &FeatureMapBlockKernel<float, Arch>::MapBlock,
      &FeatureMapBlockKernel<double, Arch>::MapBlock,
      &SymmetricUpdateKernel<float, Arch>::Run,
      &SymmetricUpdateKernel<double, Arch>::Run,
      &BlockUpdate<float>,
      &BlockUpdate<double>,
      &AddBlockGram<double>,
      &SolvePositiveDefinite,
      &FactorUpdateKernel<float, Arch>::Run,
      &FactorUpdateKernel<double, Arch>::Run,
      &FactorUpdateKernel<float, Arch>::RunBlock,
      &FactorUpdateKernel<double, Arch>::RunBlock,
      &InformationUpdateKernel<float>,
      &InformationUpdateKernel<double>,
      &LowerTriangularInverseKernel,
      &CholeskyLowerKernel,
  };
}

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_SIMD_KERNEL_TABLE_H_
