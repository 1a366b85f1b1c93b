// The sin/cos kernels for sse2, compiled with that instruction set's flags only.
#include "internal/sincos_kernel.h"

namespace rffstream::internal {

SinCosKernelTable Sse2SinCosKernels() { return MakeSinCosKernelTable<xsimd::sse2>("sse2"); }

}  // namespace rffstream::internal
