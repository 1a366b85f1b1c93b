// File: rffstream/simd.h
//
// Which SIMD kernels compute the feature map's sin/cos and the RLS updates of
// P (one set per instruction set). The best set that the CPU and the
// operating system support is chosen on first use; these calls list the
// choices and override it (for benchmarks, or to pin results).
//
//   for (const std::string& name : rffstream::SupportedSimdKernels()) ...
//   if (absl::Status s = rffstream::ForceSimdKernel("avx2"); !s.ok()) ...
#ifndef RFFSTREAM_SIMD_H_
#define RFFSTREAM_SIMD_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace rffstream {

// Kernels this machine can run, best first: of avx512, avx2, sse41, sse2,
// and always scalar (plain C++: the C library's sin/cos) last.
std::vector<std::string> SupportedSimdKernels();

// The kernel in use.
std::string ActiveSimdKernel();

// Uses `name` from now on, for every feature map and learner. An unknown or
// unsupported name is an error naming the supported ones, and changes
// nothing. Not to be called while other threads map features or learn.
[[nodiscard]] absl::Status ForceSimdKernel(std::string_view name);

}  // namespace rffstream

#endif  // RFFSTREAM_SIMD_H_
