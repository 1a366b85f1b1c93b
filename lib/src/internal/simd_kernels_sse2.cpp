// The SIMD kernels for SSE2, compiled with those flags only.
#define RFFSTREAM_EIGEN_NAMESPACE rffstream_eigen_sse2
#include "internal/simd_kernel_table.h"

namespace rffstream::internal {

constinit const SimdKernelTable kSse2SimdKernels = MakeSimdKernelTable<xsimd::sse2>("sse2");

}  // namespace rffstream::internal
