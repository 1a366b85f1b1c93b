// The sin/cos kernels for sse41, compiled with that instruction set's flags only.
#include "internal/sincos_kernel.h"

namespace rffstream::internal {

SinCosKernelTable Sse41SinCosKernels() { return MakeSinCosKernelTable<xsimd::sse4_1>("sse41"); }

}  // namespace rffstream::internal
