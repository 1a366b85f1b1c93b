// The SIMD kernels for SSE2, compiled with those flags only.
#include "internal/simd_kernel_table.h"

namespace rffstream::internal {

SimdKernelTable Sse2SimdKernels() { return MakeSimdKernelTable<xsimd::sse2>("sse2"); }

}  // namespace rffstream::internal
