#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "internal/simd_kernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace rffstream::internal {
namespace {

struct CpuFeatures {
  bool sse2 = false, sse41 = false, avx2_fma = false, avx512 = false;
};

#if defined(__x86_64__) || defined(__i386__)
std::uint64_t ReadXcr0() {
  std::uint32_t low = 0, high = 0;
  __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
  return (static_cast<std::uint64_t>(high) << 32) | low;
}

// The instructions must exist (CPUID) and the OS must save and restore their
// registers on a context switch (XCR0 via XGETBV, allowed when OSXSAVE is set).
CpuFeatures DetectCpuFeatures() {
  CpuFeatures features;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return features;
  features.sse2 = (edx & bit_SSE2) != 0;
  features.sse41 = (ecx & bit_SSE4_1) != 0;
  const bool fma = (ecx & bit_FMA) != 0;
  const bool osxsave = (ecx & bit_OSXSAVE) != 0;
  if (!osxsave) return features;
  const std::uint64_t xcr0 = ReadXcr0();
  const bool ymm_state = (xcr0 & 0x6) == 0x6;             // SSE and AVX registers
  const bool zmm_state = ymm_state && (xcr0 & 0xe0) == 0xe0;  // opmask, ZMM0-15 upper, ZMM16-31
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return features;
  features.avx2_fma = ymm_state && fma && (ebx & bit_AVX2) != 0;
  features.avx512 = zmm_state && (ebx & bit_AVX512F) && (ebx & bit_AVX512DQ) &&
                    (ebx & bit_AVX512BW) && (ebx & bit_AVX512VL);
  return features;
}
#else
CpuFeatures DetectCpuFeatures() { return {}; }
#endif

const std::vector<const SimdKernelTable*>& Supported() {
  static const std::vector<const SimdKernelTable*> supported = [] {
    const CpuFeatures features = DetectCpuFeatures();
    std::vector<const SimdKernelTable*> list;
    if (features.avx512) list.push_back(&kAvx512SimdKernels);
    if (features.avx2_fma) list.push_back(&kAvx2SimdKernels);
    if (features.sse41) list.push_back(&kSse41SimdKernels);
    if (features.sse2) list.push_back(&kSse2SimdKernels);
    list.push_back(&kScalarSimdKernels);
    return list;
  }();
  return supported;
}

std::atomic<const SimdKernelTable*> active_kernels{nullptr};

}  // namespace

std::span<const SimdKernelTable* const> SupportedSimdKernelTables() { return Supported(); }

const SimdKernelTable& ActiveSimdKernelTable() {
  const SimdKernelTable* active = active_kernels.load(std::memory_order_acquire);
  if (active == nullptr) {
    // Racing first calls all store the same best kernel; a forced choice wins.
    const SimdKernelTable* expected = nullptr;
    active_kernels.compare_exchange_strong(expected, Supported().front(), std::memory_order_acq_rel);
    active = active_kernels.load(std::memory_order_acquire);
  }
  return *active;
}

absl::Status ForceSimdKernelTable(std::string_view name) {
  std::vector<std::string> names;
  for (const SimdKernelTable* kernels : Supported()) {
    if (name == kernels->name) {
      active_kernels.store(kernels, std::memory_order_release);
      return absl::OkStatus();
    }
    names.push_back(kernels->name);
  }
  return absl::InvalidArgumentError(absl::StrCat("SIMD kernel '", std::string(name),
                                                 "' is not supported on this CPU (supported: ",
                                                 absl::StrJoin(names, ", "), ")"));
}

}  // namespace rffstream::internal
