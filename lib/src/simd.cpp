#include "rffstream/simd.h"

#include "internal/simd_kernels.h"

namespace rffstream {

std::vector<std::string> SupportedSimdKernels() {
  std::vector<std::string> names;
  for (const internal::SimdKernelTable* kernels : internal::SupportedSimdKernelTables()) {
    names.emplace_back(kernels->name);
  }
  return names;
}

std::string ActiveSimdKernel() { return internal::ActiveSimdKernelTable().name; }

absl::Status ForceSimdKernel(std::string_view name) { return internal::ForceSimdKernelTable(name); }

}  // namespace rffstream
