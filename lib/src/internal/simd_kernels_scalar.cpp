// The reference kernels in plain C++, one element at a time: the C library's
// sin and cos, the RLS pass over P as written in symmetric_update.h, the
// square-root step and its blocks as written in factor_update.h, and the block
// and bulk updates on Eigen without vector instructions.
#include <algorithm>
#include <cmath>
#include <cstddef>

// Eigen without vector instructions, for the block update.
#define EIGEN_DONT_VECTORIZE
#define RFFSTREAM_EIGEN_NAMESPACE rffstream_eigen_scalar
#include "internal/block_update_kernel.h"
#include "internal/information_update_kernel.h"
#include "internal/padded_length.h"
#include "internal/simd_kernels.h"

namespace rffstream::internal {
namespace {

template <class Real>
void ScaledCos(Real* values, std::size_t count, Real scale) {
  for (std::size_t i = 0; i < count; ++i) values[i] = scale * std::cos(values[i]);
}

template <class Real>
void ScaledSin(Real* values, std::size_t count, Real scale) {
  for (std::size_t i = 0; i < count; ++i) values[i] = scale * std::sin(values[i]);
}

template <class Real>
void ScaledSinCos(Real* arguments_then_sin, Real* cos_out, std::size_t count, Real scale) {
  for (std::size_t i = 0; i < count; ++i) {
    const Real argument = arguments_then_sin[i];
    cos_out[i] = scale * std::cos(argument);
    arguments_then_sin[i] = scale * std::sin(argument);
  }
}

template <class Real>
void Map(const FeatureMapKernelArguments<Real>& map, const double* x, int first, int count,
         Real* cos_out, Real* sin_out) {
  for (int k = 0; k < count; ++k) {
    const int i = first + k;
    Real argument = map.offsets[i];
    for (int j = 0; j < map.input_dimension; ++j) {
      argument += map.Input(x, j) * map.transposed_projection[j * map.stride + i];
    }
    if (cos_out != nullptr) cos_out[k] = map.scale * std::cos(argument);
    if (sin_out != nullptr) sin_out[k] = map.scale * std::sin(argument);
  }
}

template <class Real>
void MapBlock(const FeatureMapKernelArguments<Real>& map, const double* inputs, int rows,
              int frequencies, Real* cos_out, Real* sin_out, std::size_t output_stride) {
  for (int row = 0; row < rows; ++row) {
    const std::size_t base = static_cast<std::size_t>(row) * output_stride;
    Map(map, inputs + static_cast<std::size_t>(row) * map.input_dimension, 0, frequencies,
        cos_out + base, sin_out != nullptr ? sin_out + base : nullptr);
  }
}

template <class Real>
void UpdateAndMultiply(Real* matrix, int dimension, Real scale, const Real* u, Real a,
                       const Real* g, Real b, bool bottom_up, const Real* z, Real* product,
                       int first_row, int end_row) {
  const std::size_t stride = PaddedLength(dimension);
  std::fill(product + first_row, product + stride, Real{0});
  for (int step = first_row; step < end_row; ++step) {
    const int i = bottom_up ? end_row - 1 - (step - first_row) : step;
    Real* row = matrix + static_cast<std::size_t>(i) * stride;
    for (int j = i; j < dimension; ++j) {
      row[j] = scale * row[j] - a * u[i] * u[j];
      if (g != nullptr) row[j] -= b * g[i] * g[j];
      product[i] += row[j] * z[j];
      if (j != i) product[j] += row[j] * z[i];
    }
  }
}

template <class Real>
Real UpdateFactorScalar(const FactorUpdateArguments<Real>& update, Real* min_scale) {
  Real alpha = update.prior;
  Real smallest = Real{1} / Real{0};
  for (int j = update.last_column; j >= 0; --j) {
    Real* column = update.factor + static_cast<std::size_t>(j) * update.stride;
    Real f = 0;
    for (int i = j; i < update.dimension; ++i) f += update.z[i] * column[i];
    Real& d = update.scales[j];
    const Real v = d * f;
    const Real next_alpha = alpha + f * v;
    const Real p = -f / alpha;
    for (int i = j; i < update.dimension; ++i) {
      const Real old_column = column[i];
      column[i] = old_column + update.gain[i] * p;
      update.gain[i] += old_column * v;
    }
    d = d * (alpha / next_alpha) * update.scale_factor;
    if (!(d >= smallest) && smallest == smallest) smallest = d;  // NaN stays
    alpha = next_alpha;
  }
  *min_scale = smallest;
  return alpha;
}

// The block as written in factor_update.h: its steps one after another.
template <class Real>
void UpdateFactorBlockScalar(const FactorBlockUpdateArguments<Real>& block) {
  std::copy_n(block.factor, static_cast<std::size_t>(block.dimension) * block.stride, block.updated_factor);
  for (int s = 0; s < block.block_size; ++s) {
    const std::size_t offset = static_cast<std::size_t>(s) * block.stride;
    block.denominators[s] = UpdateFactorScalar(
        FactorUpdateArguments<Real>{block.updated_factor, block.scales, block.stride, block.dimension,
                                    block.z + offset, Real{1}, Real{1}, block.dimension - 1,
                                    block.gains + offset},
        &block.min_scales[s]);
  }
}

}  // namespace

constinit const SimdKernelTable kScalarSimdKernels{
    "scalar",
    &ScaledCos<float>,
    &ScaledCos<double>,
    &ScaledSin<float>,
    &ScaledSin<double>,
    &ScaledSinCos<float>,
    &ScaledSinCos<double>,
    &Map<float>,
    &Map<double>,
    &MapBlock<float>,
    &MapBlock<double>,
    &UpdateAndMultiply<float>,
    &UpdateAndMultiply<double>,
    &BlockUpdate<float>,
    &BlockUpdate<double>,
    &AddBlockGram<double>,
    &SolvePositiveDefinite,
    &UpdateFactorScalar<float>,
    &UpdateFactorScalar<double>,
    &UpdateFactorBlockScalar<float>,
    &UpdateFactorBlockScalar<double>,
    &InformationUpdateKernel<float>,
    &InformationUpdateKernel<double>,
    &LowerTriangularInverseKernel,
    &CholeskyLowerKernel};

}  // namespace rffstream::internal
