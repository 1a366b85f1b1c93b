// internal/factor_update.h's U-D step, in every SIMD kernel and both
// precisions, against its definition computed in double from the factors:
// P' = (P - P z zᵀ P / c) / β with c = α₀ + zᵀPz, the gain P z and c; the
// zeros above L's diagonal and past its last row kept. Every size up to 70
// (every tail of every vector width) and one of several hundred rows; a
// step with skipped columns (forgetting's refresh).
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "Eigen/Dense"
#include "internal/factor_update.h"
#include "internal/padded_length.h"
#include "internal/simd_kernels.h"
#include "rffstream/aligned_vector.h"
#include "tests/forced_simd_kernel.h"

namespace rffstream {
namespace {

using Matrix = Eigen::MatrixXd;

// A factorization P = L D Lᵀ and a z, in the kernel's storage.
template <class Real>
struct Factors {
  int dimension;
  std::size_t stride;
  AlignedVector<Real> columns;  // column j of L from columns[j * stride]
  std::vector<Real> scales;
  AlignedVector<Real> z;
};

template <class Real>
Factors<Real> RandomFactors(int dimension, int last_nonzero, unsigned seed) {
  std::mt19937 engine(seed);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> positive(0.1, 10.0);
  Factors<Real> factors{dimension, internal::PaddedLength(dimension), {}, {}, {}};
  factors.columns.assign(static_cast<std::size_t>(dimension) * factors.stride, Real{0});
  factors.z.assign(factors.stride, Real{0});
  for (int j = 0; j < dimension; ++j) {
    factors.columns[j * factors.stride + j] = 1;
    for (int i = j + 1; i < dimension; ++i) {
      factors.columns[j * factors.stride + i] = static_cast<Real>(0.3 * normal(engine));
    }
    factors.scales.push_back(static_cast<Real>(positive(engine)));
    if (j <= last_nonzero) factors.z[j] = static_cast<Real>(normal(engine) / std::sqrt(dimension));
  }
  return factors;
}

template <class Real>
Matrix Covariance(const Factors<Real>& factors) {
  const int n = factors.dimension;
  Matrix lower = Matrix::Zero(n, n);
  for (int j = 0; j < n; ++j) {
    for (int i = j; i < n; ++i) lower(i, j) = factors.columns[j * factors.stride + i];
  }
  Eigen::VectorXd scales(n);
  for (int j = 0; j < n; ++j) scales[j] = factors.scales[j];
  return lower * scales.asDiagonal() * lower.transpose();
}

template <class Real>
void CheckStep(int dimension, double beta, int last_column, double tolerance) {
  for (const internal::SimdKernelTable* table : internal::SupportedSimdKernelTables()) {
    testing::ForcedSimdKernel forced(table->name);
    INFO(table->name << ", D = " << dimension << ", β = " << beta << ", last column " << last_column);
    Factors<Real> factors = RandomFactors<Real>(dimension, last_column, 7u + dimension);
    const Matrix p = Covariance(factors);
    Eigen::VectorXd z(dimension);
    for (int i = 0; i < dimension; ++i) z[i] = factors.z[i];
    const Eigen::VectorXd gain = p * z;
    const double c = beta + z.dot(gain);
    const Matrix expected = (p - gain * gain.transpose() / c) / beta;

    AlignedVector<Real> computed_gain(factors.stride, Real{0});
    Real smallest = 0;
    const Real denominator = internal::UpdateFactor(
        internal::FactorUpdateArguments<Real>{factors.columns.data(), factors.scales.data(),
                                              factors.stride, dimension, factors.z.data(),
                                              static_cast<Real>(beta), static_cast<Real>(1 / beta),
                                              last_column, computed_gain.data()},
        &smallest);
    CHECK(denominator == Approx(c).epsilon(tolerance));
    int misplaced = 0;  // entries that must stay 0: above the diagonal, past the last row
    for (int j = 0; j < dimension; ++j) {
      CHECK(computed_gain[j] == Approx(gain[j]).epsilon(tolerance).margin(tolerance * gain.norm()));
      const Real* column = factors.columns.data() + j * factors.stride;
      CHECK(column[j] == Real{1});  // L stays unit
      for (std::size_t i = 0; i < factors.stride; ++i) {
        if ((i < static_cast<std::size_t>(j) || i >= static_cast<std::size_t>(dimension)) && column[i] != 0) ++misplaced;
      }
    }
    CHECK(misplaced == 0);
    CHECK(smallest > 0);
    CHECK((Covariance(factors) - expected).norm() < tolerance * expected.norm());
  }
}

TEST_CASE("The factor step is the rank-one downdate of P, in every SIMD kernel", "[rls][factor][simd]") {
  std::vector<int> dimensions = {601};
  for (int dimension = 1; dimension <= 70; ++dimension) dimensions.push_back(dimension);
  for (const int dimension : dimensions) {
    CheckStep<double>(dimension, 1.0, dimension - 1, 1e-11);
    CheckStep<double>(dimension, 0.97, dimension - 1, 1e-11);
    CheckStep<float>(dimension, 1.0, dimension - 1, 2e-4);
    CheckStep<float>(dimension, 0.97, dimension - 1, 2e-4);
  }
  // Forgetting's refresh: z zero below row 20, the columns after it skipped, β = 1.
  CheckStep<double>(37, 1.0, 20, 1e-11);
  CheckStep<float>(601, 1.0, 300, 2e-4);
}

}  // namespace
}  // namespace rffstream
