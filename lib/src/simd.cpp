#include "rffstream/simd.h"

#include "internal/sincos_kernels.h"

namespace rffstream {

std::vector<std::string> SupportedSimdKernels() {
  std::vector<std::string> names;
  for (const internal::SinCosKernelTable* kernels : internal::SupportedSinCosKernels()) {
    names.emplace_back(kernels->name);
  }
  return names;
}

std::string ActiveSimdKernel() { return internal::ActiveSinCosKernels().name; }

absl::Status ForceSimdKernel(std::string_view name) { return internal::ForceSinCosKernel(name); }

}  // namespace rffstream
