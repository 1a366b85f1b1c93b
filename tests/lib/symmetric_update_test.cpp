// Every SIMD kernel's RLS pass over P (UpdateAndMultiplySymmetric) against a
// dense double-precision Eigen evaluation of the same formula.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "Eigen/Dense"
#include "internal/padded_length.h"
#include "internal/random.h"
#include "internal/simd_kernels.h"
#include "rffstream/aligned_vector.h"

namespace rffstream::internal {
namespace {

// Relative to the largest |entry|: the kernels reorder sums of `dimension` terms.
template <class Real>
constexpr double kTolerance = std::is_same_v<Real, float> ? 2e-5 : 1e-13;

struct Case {
  int dimension;
  double scale;
  bool second_update;
  bool aligned;  // rows start on a 64-byte boundary (the learner's layout)
  bool bottom_up;
  int ranges = 1;  // the rows cut into this many ranges, each with its own product
};

template <class Real>
using UpdateFunction = void (*)(Real*, int, Real, const Real*, Real, const Real*, Real, bool,
                                const Real*, Real*, int, int);

template <class Real>
UpdateFunction<Real> UpdateOf(const SimdKernelTable& kernels) {
  if constexpr (std::is_same_v<Real, float>) {
    return kernels.update_and_multiply_float;
  } else {
    return kernels.update_and_multiply_double;
  }
}

template <class Real>
void CheckKernel(const SimdKernelTable& kernels, const Case& test_case) {
  INFO("kernel " << kernels.name << ", dimension " << test_case.dimension << ", scale "
                 << test_case.scale << ", second update " << test_case.second_update
                 << ", aligned " << test_case.aligned << ", bottom up " << test_case.bottom_up
                 << ", ranges " << test_case.ranges);
  const int d = test_case.dimension;
  const std::size_t stride = PaddedLength(d);
  RandomEngine random(1234 + d);
  // A symmetric positive definite matrix, stored as its upper triangle.
  Eigen::MatrixXd root = Eigen::MatrixXd::Zero(d, d);
  for (int i = 0; i < d; ++i) {
    for (int j = 0; j < d; ++j) root(i, j) = random.NextStandardNormal();
  }
  const Eigen::MatrixXd p = root * root.transpose() / d + Eigen::MatrixXd::Identity(d, d);
  const std::size_t offset = test_case.aligned ? 0 : 1;  // one element off the boundary
  AlignedVector<Real> storage(offset + d * stride, Real{0});
  Real* matrix = storage.data() + offset;
  for (int i = 0; i < d; ++i) {
    for (int j = i; j < d; ++j) matrix[i * stride + j] = static_cast<Real>(p(i, j));
  }
  AlignedVector<Real> u(stride, 0), g(stride, 0), z(stride, 0), product(stride, 0);
  for (int i = 0; i < d; ++i) {
    u[i] = static_cast<Real>(random.NextStandardNormal() * 0.1);
    g[i] = static_cast<Real>(random.NextStandardNormal() * 0.1);
    z[i] = static_cast<Real>(random.NextStandardNormal());
  }
  const Real a = Real{0.5}, b = test_case.second_update ? Real{0.25} : Real{0};
  const auto vector = [d](const AlignedVector<Real>& v) {
    return Eigen::Map<const Eigen::Matrix<Real, Eigen::Dynamic, 1>>(v.data(), d).template cast<double>().eval();
  };
  // The reference works from the Real-rounded inputs, in double.
  Eigen::MatrixXd stored = Eigen::MatrixXd::Zero(d, d);
  for (int i = 0; i < d; ++i) {
    for (int j = i; j < d; ++j) stored(i, j) = stored(j, i) = matrix[i * stride + j];
  }
  Eigen::MatrixXd expected = static_cast<double>(static_cast<Real>(test_case.scale)) * stored -
                             a * vector(u) * vector(u).transpose();
  if (test_case.second_update) expected -= b * vector(g) * vector(g).transpose();
  const Eigen::VectorXd expected_product = expected * vector(z);

  // Ranges at uneven places (not multiples of the row block or of a
  // vector), each summing into its own product, added up afterwards from
  // its first row on, as the threaded RLS pass does.
  std::vector<int> bounds{0};
  for (int r = 1; r < test_case.ranges; ++r) {
    bounds.push_back(std::clamp(d * r / test_case.ranges + r % 2, bounds.back(), d));
  }
  bounds.push_back(d);
  for (int r = 0; r + 1 < static_cast<int>(bounds.size()); ++r) {
    if (bounds[r] >= bounds[r + 1]) continue;
    AlignedVector<Real> part(stride, Real{0});
    UpdateOf<Real>(kernels)(matrix, d, static_cast<Real>(test_case.scale), u.data(), a,
                            test_case.second_update ? g.data() : nullptr, b, test_case.bottom_up,
                            z.data(), r == 0 ? product.data() : part.data(), bounds[r],
                            bounds[r + 1]);
    if (r == 0) continue;
    for (int i = 0; i < bounds[r]; ++i) REQUIRE(part[i] == Real{0});
    for (std::size_t i = bounds[r]; i < stride; ++i) product[i] += part[i];
  }

  const double tolerance = kTolerance<Real> * expected.cwiseAbs().maxCoeff();
  for (int i = 0; i < d; ++i) {
    for (int j = 0; j < static_cast<int>(stride); ++j) {
      const Real entry = matrix[i * stride + j];
      if (j >= i && j < d) {
        REQUIRE(std::abs(entry - expected(i, j)) <= tolerance);
      } else {
        REQUIRE(entry == Real{0});  // the lower triangle and the padding stay zero
      }
    }
  }
  const double product_tolerance =
      kTolerance<Real> * d * expected.cwiseAbs().maxCoeff() * vector(z).cwiseAbs().maxCoeff();
  for (int i = 0; i < d; ++i) REQUIRE(std::abs(product[i] - expected_product(i)) <= product_tolerance);
  for (std::size_t i = d; i < stride; ++i) REQUIRE(product[i] == Real{0});
}

TEMPLATE_TEST_CASE("Every kernel's pass over P matches the dense formula", "[rls][simd]", float,
                   double) {
  for (const SimdKernelTable* kernels : SupportedSimdKernelTables()) {
    // Dimensions around the row block (4) and every vector width (2 .. 16 lanes).
    for (const int dimension : {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100}) {
      for (const double scale : {1.0, 1.0 / 0.99}) {
        for (const bool second_update : {false, true}) {
          for (const bool aligned : {true, false}) {
            for (const bool bottom_up : {false, true}) {
              for (const int ranges : {1, 2, 3}) {
                CheckKernel<TestType>(*kernels,
                                      {dimension, scale, second_update, aligned, bottom_up, ranges});
              }
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace rffstream::internal
