// The sin/cos kernels for avx512, compiled with that instruction set's flags only.
#include "internal/sincos_kernel.h"

namespace rffstream::internal {

SinCosKernelTable Avx512SinCosKernels() { return MakeSinCosKernelTable<xsimd::avx512bw>("avx512"); }

}  // namespace rffstream::internal
