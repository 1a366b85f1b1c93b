// The SIMD kernels for AVX-512 (F, DQ, BW, VL), compiled with those flags only.
#define RFFSTREAM_EIGEN_NAMESPACE rffstream_eigen_avx512
#include "internal/simd_kernel_table.h"

namespace rffstream::internal {

constinit const SimdKernelTable kAvx512SimdKernels = MakeSimdKernelTable<xsimd::avx512bw>("avx512");

}  // namespace rffstream::internal
