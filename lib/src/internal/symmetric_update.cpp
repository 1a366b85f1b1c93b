#include "internal/symmetric_update.h"

#include <algorithm>

// One clone per instruction set; the loader picks (ifunc) the best the CPU
// runs. Clones are named by feature, not by "arch=": those test the exact CPU
// model and fell back to the baseline clone on this Xeon. The loops are written so that `omp simd` (-fopenmp-simd, no OpenMP
// runtime) vectorizes them, reductions included, without -ffast-math.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define RFFSTREAM_MULTIVERSIONED \
  __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define RFFSTREAM_MULTIVERSIONED
#endif

namespace rffstream::internal {
namespace {

// Rows are processed four at a time: the loads of u, g, z and the product
// are shared by four rows, and four independent reductions keep the FMA units
// busy. The small triangle where the four rows meet the diagonal is scalar.
constexpr int kRowsPerBlock = 4;

template <class Real, bool kSecondUpdate>
[[gnu::always_inline]] inline Real UpdatedEntry(Real stored, Real scale, Real a_u_i, Real u_j,
                                                Real b_g_i, Real g_j) {
  Real value = scale * stored - a_u_i * u_j;
  if constexpr (kSecondUpdate) value -= b_g_i * g_j;
  return value;
}

template <class Real, bool kSecondUpdate>
[[gnu::always_inline]] inline void UpdateAndMultiplyBody(Real* __restrict matrix, int dimension,
                                                         Real scale,
                                                         const Real* __restrict u, Real a,
                                                         const Real* __restrict g, Real b,
                                                         const Real* __restrict z,
                                                         Real* __restrict product) {
  const std::size_t stride = PaddedLength(dimension);
  std::fill(product, product + stride, Real{0});
  const auto row_at = [&](int i) { return matrix + static_cast<std::size_t>(i) * stride; };
  int first = 0;
  for (; first + kRowsPerBlock <= dimension; first += kRowsPerBlock) {
    Real* __restrict row0 = row_at(first);
    Real* __restrict row1 = row_at(first + 1);
    Real* __restrict row2 = row_at(first + 2);
    Real* __restrict row3 = row_at(first + 3);
    Real a_u[kRowsPerBlock], b_g[kRowsPerBlock], dot[kRowsPerBlock];
    for (int r = 0; r < kRowsPerBlock; ++r) {
      a_u[r] = a * u[first + r];
      b_g[r] = kSecondUpdate ? b * g[first + r] : Real{0};
      dot[r] = 0;
    }
    // The 4×4 corner on and right of the diagonal.
    for (int r = 0; r < kRowsPerBlock; ++r) {
      Real* row = row_at(first + r);
      for (int j = first + r; j < first + kRowsPerBlock; ++j) {
        const Real value = UpdatedEntry<Real, kSecondUpdate>(row[j], scale, a_u[r], u[j], b_g[r],
                                                             kSecondUpdate ? g[j] : Real{0});
        row[j] = value;
        dot[r] += value * z[j];
        if (j != first + r) product[j] += value * z[first + r];
      }
    }
    const Real z0 = z[first], z1 = z[first + 1], z2 = z[first + 2], z3 = z[first + 3];
    Real dot0 = 0, dot1 = 0, dot2 = 0, dot3 = 0;
    // Whole vectors only: the zero padding contributes nothing.
    const int begin = first + kRowsPerBlock;
    const int end = begin + (dimension - begin + kPaddingMultiple - 1) / kPaddingMultiple * kPaddingMultiple;
#pragma omp simd reduction(+ : dot0, dot1, dot2, dot3)
    for (int j = begin; j < end; ++j) {
      const Real u_j = u[j], z_j = z[j];
      const Real g_j = kSecondUpdate ? g[j] : Real{0};
      const Real v0 = UpdatedEntry<Real, kSecondUpdate>(row0[j], scale, a_u[0], u_j, b_g[0], g_j);
      const Real v1 = UpdatedEntry<Real, kSecondUpdate>(row1[j], scale, a_u[1], u_j, b_g[1], g_j);
      const Real v2 = UpdatedEntry<Real, kSecondUpdate>(row2[j], scale, a_u[2], u_j, b_g[2], g_j);
      const Real v3 = UpdatedEntry<Real, kSecondUpdate>(row3[j], scale, a_u[3], u_j, b_g[3], g_j);
      row0[j] = v0;
      row1[j] = v1;
      row2[j] = v2;
      row3[j] = v3;
      dot0 += v0 * z_j;
      dot1 += v1 * z_j;
      dot2 += v2 * z_j;
      dot3 += v3 * z_j;
      product[j] += v0 * z0 + v1 * z1 + v2 * z2 + v3 * z3;
    }
    product[first] += dot[0] + dot0;
    product[first + 1] += dot[1] + dot1;
    product[first + 2] += dot[2] + dot2;
    product[first + 3] += dot[3] + dot3;
  }
  // The last rows, one at a time.
  for (int i = first; i < dimension; ++i) {
    Real* __restrict row = row_at(i);
    const Real a_u = a * u[i];
    const Real b_g = kSecondUpdate ? b * g[i] : Real{0};
    Real dot = 0;
    for (int j = i; j < dimension; ++j) {
      const Real value =
          UpdatedEntry<Real, kSecondUpdate>(row[j], scale, a_u, u[j], b_g, kSecondUpdate ? g[j] : Real{0});
      row[j] = value;
      dot += value * z[j];
      if (j != i) product[j] += value * z[i];
    }
    product[i] += dot;
  }
}

}  // namespace

RFFSTREAM_MULTIVERSIONED
void UpdateAndMultiplySymmetric(float* matrix, int dimension, float scale, const float* u,
                                float a, const float* g, float b, const float* z, float* product) {
  if (g != nullptr) {
    UpdateAndMultiplyBody<float, true>(matrix, dimension, scale, u, a, g, b, z, product);
  } else {
    UpdateAndMultiplyBody<float, false>(matrix, dimension, scale, u, a, g, b, z, product);
  }
}

RFFSTREAM_MULTIVERSIONED
void UpdateAndMultiplySymmetric(double* matrix, int dimension, double scale, const double* u,
                                double a, const double* g, double b, const double* z,
                                double* product) {
  if (g != nullptr) {
    UpdateAndMultiplyBody<double, true>(matrix, dimension, scale, u, a, g, b, z, product);
  } else {
    UpdateAndMultiplyBody<double, false>(matrix, dimension, scale, u, a, g, b, z, product);
  }
}

}  // namespace rffstream::internal
