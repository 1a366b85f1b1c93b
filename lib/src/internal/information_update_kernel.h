// File: internal/information_update_kernel.h
//
// The bulk update of the information factor (information_update.h), the
// inversion of a triangle and a Cholesky factorization, written on Eigen
// and instantiated per instruction set in simd_kernels_<arch>.cpp, as
// block_update_kernel.h is (included first: it renames Eigen's namespace
// for the unit).
#ifndef RFFSTREAM_INTERNAL_INFORMATION_UPDATE_KERNEL_H_
#define RFFSTREAM_INTERNAL_INFORMATION_UPDATE_KERNEL_H_

#ifndef RFFSTREAM_INTERNAL_BLOCK_UPDATE_KERNEL_H_
#error "include block_update_kernel.h before information_update_kernel.h"
#endif

#include <algorithm>
#include <cmath>

#define Eigen RFFSTREAM_EIGEN_NAMESPACE
#include "Eigen/Core"
#include "internal/information_update.h"

namespace rffstream::internal {
namespace {

// Reflections per panel, and columns per part of the update left of it.
constexpr int kPanelColumns = 32;
constexpr int kPartColumns = 128;

// Reduces columns j0 .. j0 + n - 1 of [Q; Z] one reflection at a time, from
// the last: H = I - τ v vᵀ with v = (1 at row j of Q; v_z in Z's column j)
// makes that column (β, 0); v_z is left in Z's column j. Returns T (upper
// triangular, n × n) with H_j0 ⋯ H_(j0+n-1) = I - V T Vᵀ (LAPACK's xLARFT,
// forward): the reflections' Q rows differ, so Vᵀ V = I + V_zᵀ V_z.
template <class Real, class FactorMap, class FeatureMap>
Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic> ReducePanel(FactorMap& q, FeatureMap& z,
                                                                int j0, int n) {
  using Matrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>;
  using Vector = Eigen::Matrix<Real, Eigen::Dynamic, 1>;
  Vector tau = Vector::Zero(n);
  for (int c = n - 1; c >= 0; --c) {
    const int j = j0 + c;
    auto x = z.col(j);
    const Real squares = x.squaredNorm();
    if (squares == 0) continue;  // the column is reduced already: H = I
    const Real alpha = q(j, j);
    const Real norm = std::sqrt(alpha * alpha + squares);
    const Real beta = alpha > 0 ? -norm : norm;  // α - β never cancels
    tau[c] = (beta - alpha) / beta;
    x *= Real{1} / (alpha - beta);
    q(j, j) = beta;
    if (c == 0) continue;
    Eigen::Matrix<Real, 1, Eigen::Dynamic> dots = q.row(j).segment(j0, c);
    dots.noalias() += x.transpose() * z.middleCols(j0, c);
    q.row(j).segment(j0, c) -= tau[c] * dots;
    z.middleCols(j0, c).noalias() -= (tau[c] * x) * dots;
  }
  const auto v = z.middleCols(j0, n);
  const Matrix gram = v.transpose() * v;
  Matrix t = Matrix::Zero(n, n);
  for (int c = 0; c < n; ++c) {
    t(c, c) = tau[c];
    if (c == 0) continue;
    const Vector column = -tau[c] * gram.col(c).head(c);
    t.col(c).head(c).noalias() = t.topLeftCorner(c, c).template triangularView<Eigen::Upper>() * column;
  }
  return t;
}

// [top; bottom] -= V T Vᵀ [top; bottom] for the panel's V = (I; v), with
// `top` the panel's rows of Q (or B) and `bottom` Z's (or Y's) columns.
template <class Real, class Reflections, class Top, class Bottom>
void ApplyPanel(const Reflections& v, const Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>& t,
                Top top, Bottom bottom) {
  Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic> w = top;
  w.noalias() += v.transpose() * bottom;
  w = t.template triangularView<Eigen::Upper>() * w;
  top -= w;
  bottom.noalias() -= v * w;
}

// Z's rows `first` .. first + rows - 1 into column-major `z` (rows × d), in
// tiles that stay in L1 both ways.
template <class Real, class Features, class Transposed>
void TransposeRows(const Features& features, int first, int rows, Transposed& z) {
  constexpr int kTile = 16;
  const int d = static_cast<int>(features.cols());
  for (int r0 = 0; r0 < rows; r0 += kTile) {
    for (int c0 = 0; c0 < d; c0 += kTile) {
      const int r1 = std::min(rows, r0 + kTile), c1 = std::min(d, c0 + kTile);
      for (int c = c0; c < c1; ++c) {
        for (int r = r0; r < r1; ++r) z(r, c) = features(first + r, c);
      }
    }
  }
}

template <class Real>
void InformationUpdateKernel(const InformationUpdateArguments<Real>& update) {
  using Matrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>;
  using RowMatrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Strided = Eigen::Map<Matrix, 0, Eigen::OuterStride<>>;
  const int d = update.dimension, k = update.block_size, m = update.num_outputs;
  Strided q(update.factor, d, d, Eigen::OuterStride<>(update.stride));
  Strided b(update.rotated_targets, d, m, Eigen::OuterStride<>(update.stride));
  Eigen::Map<Matrix> w(update.weights, d, m);
  const Eigen::Map<const RowMatrix> features(update.features, k, d);
  const Eigen::Map<const RowMatrix> targets(update.targets, k, m);
  Eigen::Map<RowMatrix>(update.priors, k, m).noalias() = features * w;
  std::fill(update.added_costs, update.added_costs + m, Real{0});
  const int rows_per_pass = InformationRowsPerPass(d);
  for (int first = 0; first < k; first += rows_per_pass) {
    const int rows = std::min(rows_per_pass, k - first);
    Eigen::Map<Matrix> z(update.scratch, rows, d);
    Eigen::Map<Matrix> y(update.scratch + static_cast<std::size_t>(rows) * d, rows, m);
    TransposeRows<Real>(features, first, rows, z);
    y = targets.middleRows(first, rows);
    for (int end = d; end > 0; end -= kPanelColumns) {
      const int j0 = std::max(0, end - kPanelColumns), n = end - j0;
      const Matrix t = ReducePanel<Real>(q, z, j0, n);
      const auto v = z.middleCols(j0, n);
      auto part = [&](int index) {
        const int c0 = index * kPartColumns, columns = std::min(kPartColumns, j0 - c0);
        ApplyPanel<Real>(v, t, q.block(j0, c0, n, columns), z.middleCols(c0, columns));
      };
      if (j0 > 0) ForEachPart(update.pool, (j0 + kPartColumns - 1) / kPartColumns, part);
      ApplyPanel<Real>(v, t, b.middleRows(j0, n), y);
    }
    for (int o = 0; o < m; ++o) update.added_costs[o] += y.col(o).squaredNorm();
  }
  w = q.template triangularView<Eigen::Lower>().solve(b);
}

// The lower triangle of the n × n column-major block at `data` (columns
// `stride` apart) replaced by its inverse's, recursively:
// [A 0; B C]⁻¹ = [A⁻¹ 0; -C⁻¹ B A⁻¹ C⁻¹], so that the work, D³/6
// multiply-adds, is in triangular matrix products (solving against the
// identity would take D³/2).
inline void InvertLower(double* data, int n, int stride) {
  using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic>;
  using Strided = Eigen::Map<Matrix, 0, Eigen::OuterStride<>>;
  Strided triangle(data, n, n, Eigen::OuterStride<>(stride));
  if (n <= 64) {
    Matrix inverse = Matrix::Identity(n, n);
    triangle.triangularView<Eigen::Lower>().solveInPlace(inverse);
    triangle.triangularView<Eigen::Lower>() = inverse;
    return;
  }
  const int h = n / 2;
  InvertLower(data, h, stride);
  InvertLower(data + static_cast<std::ptrdiff_t>(h) * stride + h, n - h, stride);
  auto below = triangle.bottomLeftCorner(n - h, h);
  const Matrix scaled = triangle.bottomRightCorner(n - h, n - h).triangularView<Eigen::Lower>() * below;
  below.noalias() = -(scaled * triangle.topLeftCorner(h, h).triangularView<Eigen::Lower>());
}

// matrix (dimension × dimension, column-major, lower triangle) = its
// inverse, in place; the entries above the diagonal are left as they were.
void LowerTriangularInverseKernel(double* matrix, int dimension) {
  InvertLower(matrix, dimension, dimension);
}

// The lower triangle of a positive definite matrix (column-major) replaced
// by its Cholesky factor's, in place (Eigen's blocked LLT, whose products
// then run on this instruction set); false if it is not positive definite.
bool CholeskyLowerKernel(double* matrix, int dimension) {
  Eigen::Map<Eigen::MatrixXd> triangle(matrix, dimension, dimension);
  const Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>, Eigen::Lower> factored(triangle);
  return factored.info() == Eigen::Success;
}

}  // namespace
}  // namespace rffstream::internal

#undef Eigen

#endif  // RFFSTREAM_INTERNAL_INFORMATION_UPDATE_KERNEL_H_
