// File: internal/sincos_kernels.h
//
// The per-instruction-set sin/cos kernels and the run-time choice among them.
// Each table comes from its own translation unit, compiled with that
// instruction set's flags only (sincos_avx512.cpp, sincos_avx2.cpp,
// sincos_sse41.cpp, sincos_sse2.cpp; sincos_scalar.cpp is the std::sin/std::cos
// reference). The best kernel the CPU and the OS support is chosen on first use
// and cached; ForceSinCosKernel() overrides it.
#ifndef RFFSTREAM_INTERNAL_SINCOS_KERNELS_H_
#define RFFSTREAM_INTERNAL_SINCOS_KERNELS_H_

#include <cstddef>
#include <span>
#include <string_view>

#include "absl/status/status.h"

namespace rffstream::internal {

// In place: values[i] = scale·cos(values[i]) (ScaledCos), scale·sin (ScaledSin);
// ScaledSinCos: cos_out[i] = scale·cos(a), arguments_then_sin[i] = scale·sin(a).
struct SinCosKernelTable {
  const char* name;
  void (*scaled_cos_float)(float* values, std::size_t count, float scale);
  void (*scaled_cos_double)(double* values, std::size_t count, double scale);
  void (*scaled_sin_float)(float* values, std::size_t count, float scale);
  void (*scaled_sin_double)(double* values, std::size_t count, double scale);
  void (*scaled_sincos_float)(float* arguments_then_sin, float* cos_out, std::size_t count,
                              float scale);
  void (*scaled_sincos_double)(double* arguments_then_sin, double* cos_out, std::size_t count,
                               double scale);
};

SinCosKernelTable Avx512SinCosKernels();
SinCosKernelTable Avx2SinCosKernels();
SinCosKernelTable Sse41SinCosKernels();
SinCosKernelTable Sse2SinCosKernels();
SinCosKernelTable ScalarSinCosKernels();

// Kernels this CPU and OS can run, best first; "scalar" is always last.
std::span<const SinCosKernelTable* const> SupportedSinCosKernels();

// The kernel in use (the best supported one unless forced). Lock-free.
const SinCosKernelTable& ActiveSinCosKernels();

// Uses the named kernel from now on; an unknown or unsupported name is an
// error and changes nothing.
[[nodiscard]] absl::Status ForceSinCosKernel(std::string_view name);

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_SINCOS_KERNELS_H_
