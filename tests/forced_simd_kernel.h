// File: tests/forced_simd_kernel.h
//
// Forces a SIMD kernel for as long as the object lives and restores the one
// that was active before, even when a REQUIRE ends the test early: a test
// that forces a kernel never leaves it forced for the next one.
#ifndef RFFSTREAM_TESTS_FORCED_SIMD_KERNEL_H_
#define RFFSTREAM_TESTS_FORCED_SIMD_KERNEL_H_

#include <catch2/catch.hpp>
#include <string>

#include "internal/simd_kernels.h"

namespace rffstream::testing {

class ForcedSimdKernel {
 public:
  explicit ForcedSimdKernel(const std::string& name)
      : previous_(internal::ActiveSimdKernelTable().name) {
    REQUIRE(internal::ForceSimdKernelTable(name).ok());
  }
  ForcedSimdKernel(const ForcedSimdKernel&) = delete;
  ForcedSimdKernel& operator=(const ForcedSimdKernel&) = delete;
  ~ForcedSimdKernel() { (void)internal::ForceSimdKernelTable(previous_); }

 private:
  std::string previous_;
};

}  // namespace rffstream::testing

#endif  // RFFSTREAM_TESTS_FORCED_SIMD_KERNEL_H_
