// The SIMD kernels for AVX2 with FMA, compiled with those flags only.
#define RFFSTREAM_EIGEN_NAMESPACE rffstream_eigen_avx2
#include "internal/simd_kernel_table.h"

namespace rffstream::internal {

constinit const SimdKernelTable kAvx2SimdKernels = MakeSimdKernelTable<xsimd::avx2>("avx2");

}  // namespace rffstream::internal
