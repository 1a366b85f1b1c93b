// The sin/cos kernels for AVX2 with FMA, compiled with those flags only.
#include "internal/sincos_kernel.h"

namespace rffstream::internal {

SinCosKernelTable Avx2SinCosKernels() {
  return MakeSinCosKernelTable<xsimd::fma3<xsimd::avx2>>("avx2");
}

}  // namespace rffstream::internal
