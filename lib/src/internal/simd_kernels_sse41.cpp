// The SIMD kernels for SSE4.1, compiled with those flags only.
#define RFFSTREAM_EIGEN_NAMESPACE rffstream_eigen_sse41
#include "internal/simd_kernel_table.h"

namespace rffstream::internal {

constinit const SimdKernelTable kSse41SimdKernels = MakeSimdKernelTable<xsimd::sse4_1>("sse41");

}  // namespace rffstream::internal
