// File: internal/simd_kernels.h
//
// The per-instruction-set SIMD kernels (the feature map's sin/cos and the RLS
// pass over P) and the run-time choice among them. Each table comes from its
// own translation unit, compiled with that instruction set's flags only
// (simd_kernels_avx512.cpp, simd_kernels_avx2.cpp, simd_kernels_sse41.cpp,
// simd_kernels_sse2.cpp; simd_kernels_scalar.cpp is the plain C++ reference,
// with the C library's sin and cos). The best kernel the CPU and the OS
// support is chosen on first use and cached; ForceSimdKernelTable() overrides it.
#ifndef RFFSTREAM_INTERNAL_SIMD_KERNELS_H_
#define RFFSTREAM_INTERNAL_SIMD_KERNELS_H_

#include <cstddef>
#include <span>
#include <string_view>

#include "absl/status/status.h"
#include "internal/factor_update.h"
#include "internal/information_update.h"
#include "rffstream/thread_pool.h"

namespace rffstream::internal {

// The feature-map step for frequencies first .. first + count - 1:
//   a_i = offsets[i] + Σ_j x'_j · transposed_projection[j · stride + i]
//   cos_out[i - first] = scale·cos(a_i), sin_out[i - first] = scale·sin(a_i)
// (either output may be null), where x'_j = x_j - centres[j], subtracted in
// double and then rounded to Real (InputCentres: 0 for most inputs; the
// mean of one far from zero). The projection is stored input-major, so each
// input contributes one vector operation per SIMD width of frequencies. The
// arguments are written into the output and replaced by sin/cos in place
// while they are in L1: no other buffer.
//
// A NaN input is a missing value: x'_j takes missing_fill[j] instead (what
// the input's mean gives when the map standardizes, else 0), so it
// contributes what an average value does and never poisons the features.
template <class Real>
struct FeatureMapKernelArguments {
  const Real* transposed_projection;  // input_dimension rows of `stride` entries
  const Real* offsets;
  std::size_t stride;
  int input_dimension;
  Real scale;
  const double* centres;     // input_dimension values
  const Real* missing_fill;  // input_dimension values

  // The value input j contributes.
  Real Input(const double* x, int j) const {
    const double value = x[j];
    return value == value ? static_cast<Real>(value - centres[j]) : missing_fill[j];
  }
};

// One Woodbury update of RLS by a block of samples (block_update_kernel.h).
template <class Real>
struct BlockUpdateArguments {
  Real* covariance;  // P: upper triangle of `dimension` rows of `stride` entries
  std::size_t stride;
  int dimension;
  int block_size;  // k
  int num_outputs;
  const Real* features;  // k rows of `dimension`
  const Real* targets;   // k rows of num_outputs
  Real* weights;         // num_outputs runs of `dimension`
  Real* scratch;         // dimension · k entries
  Real* priors;          // out: k rows of num_outputs a-priori predictions
  Real* error_variance_factors;  // out: k entries, c_s = 1 + z_sᵀ P_(s-1) z_s
  // The noise estimate's sums (num_outputs), which will gain Σ_s e_s² / c_s:
  // a block that would make them overflow is refused too.
  const Real* noise_sums;
  // The parts of the two O(D² k) products, the same whatever the threads
  // (so that the results are too): the rows where the parts of P's
  // triangle start, then D (BasicRls::RowParts); P Zᵀ is cut into as many
  // parts of equal row counts. A single part: one product each.
  std::span<const int> row_bounds;
  // The threads that run the parts (nullptr: this thread alone).
  ThreadPool* pool = nullptr;
};

// In place: values[i] = scale·cos(values[i]) (ScaledCos), scale·sin (ScaledSin);
// ScaledSinCos: cos_out[i] = scale·cos(a), arguments_then_sin[i] = scale·sin(a).
struct SimdKernelTable {
  const char* name;
  void (*scaled_cos_float)(float* values, std::size_t count, float scale);
  void (*scaled_cos_double)(double* values, std::size_t count, double scale);
  void (*scaled_sin_float)(float* values, std::size_t count, float scale);
  void (*scaled_sin_double)(double* values, std::size_t count, double scale);
  void (*scaled_sincos_float)(float* arguments_then_sin, float* cos_out, std::size_t count,
                              float scale);
  void (*scaled_sincos_double)(double* arguments_then_sin, double* cos_out, std::size_t count,
                               double scale);
  void (*map_float)(const FeatureMapKernelArguments<float>& map, const double* x, int first,
                    int count, float* cos_out, float* sin_out);
  void (*map_double)(const FeatureMapKernelArguments<double>& map, const double* x, int first,
                     int count, double* cos_out, double* sin_out);
  // `rows` samples at once (inputs row-major, input_dimension per row): all
  // frequencies of each, cosines at cos_out + row · output_stride, sines (if
  // sin_out) at sin_out + row · output_stride. Several rows share each load of
  // the projection, which makes the projection a register-blocked matrix product.
  void (*map_block_float)(const FeatureMapKernelArguments<float>& map, const double* inputs,
                          int rows, int frequencies, float* cos_out, float* sin_out,
                          std::size_t output_stride);
  void (*map_block_double)(const FeatureMapKernelArguments<double>& map, const double* inputs,
                           int rows, int frequencies, double* cos_out, double* sin_out,
                           std::size_t output_stride);
  // UpdateAndMultiplySymmetric (symmetric_update.h).
  void (*update_and_multiply_float)(float* matrix, int dimension, float scale, const float* u,
                                    float a, const float* g, float b, bool bottom_up,
                                    const float* z, float* product, int first_row, int end_row);
  void (*update_and_multiply_double)(double* matrix, int dimension, double scale,
                                     const double* u, double a, const double* g, double b,
                                     bool bottom_up, const double* z, double* product,
                                     int first_row, int end_row);
  // False, with P and the weights unchanged, if the block would make the
  // model non-finite.
  bool (*block_update_float)(const BlockUpdateArguments<float>& block);
  bool (*block_update_double)(const BlockUpdateArguments<double>& block);
  // gram's lower triangle += rowsᵀ rows (block_update_kernel.h: AddBlockGram).
  void (*add_block_gram_double)(double* gram, int dimension, const double* rows, int count);
  // inverse = matrix⁻¹ of a positive definite matrix, and right-hand sides
  // solved (block_update_kernel.h: SolvePositiveDefinite); false when it is not.
  bool (*solve_positive_definite)(const double* matrix, int dimension, double* inverse,
                                  double* right_sides, int count);
  // UpdateFactor (factor_update.h).
  float (*update_factor_float)(const FactorUpdateArguments<float>& update, float* min_scale);
  double (*update_factor_double)(const FactorUpdateArguments<double>& update,
                                 double* min_scale);
  // UpdateFactorBlock (factor_update.h).
  void (*update_factor_block_float)(const FactorBlockUpdateArguments<float>& block);
  void (*update_factor_block_double)(const FactorBlockUpdateArguments<double>& block);
  // InformationUpdate (information_update.h), and a lower triangle (column-major) inverted in place.
  void (*update_information_float)(const InformationUpdateArguments<float>& update);
  void (*update_information_double)(const InformationUpdateArguments<double>& update);
  void (*invert_lower_triangular)(double* matrix, int dimension);
  // A positive definite matrix's lower triangle (column-major) replaced by
  // its Cholesky factor's; false when it is not positive definite.
  bool (*cholesky_lower)(double* matrix, int dimension);
};

// The tables are constant-initialized data: naming one runs no code, so no
// instruction of an instruction set runs before CPUID and XGETBV say that the
// CPU and the OS support it (simd_dispatch.cpp).
extern const SimdKernelTable kAvx512SimdKernels;
extern const SimdKernelTable kAvx2SimdKernels;
extern const SimdKernelTable kSse41SimdKernels;
extern const SimdKernelTable kSse2SimdKernels;
extern const SimdKernelTable kScalarSimdKernels;

// Kernels this CPU and OS can run, best first; "scalar" is always last.
std::span<const SimdKernelTable* const> SupportedSimdKernelTables();

// The kernel in use (the best supported one unless forced). Lock-free.
const SimdKernelTable& ActiveSimdKernelTable();

// Uses the named kernel from now on; an unknown or unsupported name is an
// error and changes nothing.
[[nodiscard]] absl::Status ForceSimdKernelTable(std::string_view name);

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_SIMD_KERNELS_H_
