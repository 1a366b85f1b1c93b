// The SIMD kernels for AVX2 with FMA, compiled with those flags only.
#define RFFSTREAM_EIGEN_NAMESPACE rffstream_eigen_avx2
#include "internal/simd_kernel_table.h"

namespace rffstream::internal {

SimdKernelTable Avx2SimdKernels() {
  return MakeSimdKernelTable<xsimd::fma3<xsimd::avx2>>("avx2");
}

}  // namespace rffstream::internal
