// File: internal/block_update_kernel.h
//
// The Woodbury update of RLS for a block of k samples (β = 1), and the Gram
// matrix of a block, written on Eigen and instantiated per instruction set in
// simd_kernels_<arch>.cpp, so that Eigen's matrix products use that unit's
// vector width.
//
// Include this header only from those files, and only after defining
// RFFSTREAM_EIGEN_NAMESPACE to a name unique to the file: Eigen's namespace
// is renamed to it, so the Eigen templates instantiated with one unit's flags
// never meet (and are never merged by the linker with) those of another unit
// or of the rest of the library.
#ifndef RFFSTREAM_INTERNAL_BLOCK_UPDATE_KERNEL_H_
#define RFFSTREAM_INTERNAL_BLOCK_UPDATE_KERNEL_H_

#ifndef RFFSTREAM_EIGEN_NAMESPACE
#error "define RFFSTREAM_EIGEN_NAMESPACE before including block_update_kernel.h"
#endif
#ifdef EIGEN_CORE_H
#error "Eigen was included before block_update_kernel.h: its namespace would not be renamed"
#endif

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#define Eigen RFFSTREAM_EIGEN_NAMESPACE
#include "Eigen/Cholesky"
#include "Eigen/Core"
#include "internal/simd_kernels.h"

namespace rffstream::internal {
// Internal linkage: each including unit keeps its own instantiation (the
// name does not depend on the instruction set, so shared ones would merge).
namespace {

// Runs part(0) .. part(parts - 1), spread over the pool's threads (each
// thread a run of consecutive parts) or all on this thread.
template <class Part>
void ForEachPart(ThreadPool* pool, int parts, Part& part) {
  const int threads = pool == nullptr ? 1 : std::min(pool->size(), parts);
  auto run = [&](int thread) {
    for (int p = parts * thread / threads; p < parts * (thread + 1) / threads; ++p) part(p);
  };
  if (threads == 1) {
    run(0);
  } else {
    pool->Run(threads, run);
  }
}

// Rows r0 .. r0 + n - 1 of a D-row matrix: part `index` of `parts` (equal counts).
inline std::pair<int, int> Panel(int d, int parts, int index) {
  return {d * index / parts, d * (index + 1) / parts - d * index / parts};
}

// U = P Zᵀ into `gains`; returns Z U. With parts, a panel of rows of U a
// part, from the stored triangle's columns above them (transposed), their
// diagonal block and their rows right of it; and the panel's share of Z U,
// added up in one order (the same bits with any thread count).
template <class Real, class Covariance, class Features, class Gains>
Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic> GainsAndGram(ThreadPool* pool, int parts,
                                                                 const Covariance& covariance,
                                                                 const Features& z, Gains& gains) {
  using Matrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>;
  const int d = static_cast<int>(covariance.rows());
  if (parts == 1) {
    gains.noalias() = covariance.template selfadjointView<Eigen::Upper>() * z.transpose();
    return z * gains;
  }
  std::vector<Matrix> shares(static_cast<std::size_t>(parts));
  auto rows_of_gains = [&](int index) {
    const auto [r0, n] = Panel(d, parts, index);
    const int r1 = r0 + n;
    auto out = gains.middleRows(r0, n);
    out.noalias() = covariance.block(r0, r0, n, n).template selfadjointView<Eigen::Upper>() *
                    z.middleCols(r0, n).transpose();
    if (r0 > 0) out.noalias() += covariance.block(0, r0, r0, n).transpose() * z.leftCols(r0).transpose();
    if (r1 < d) out.noalias() += covariance.block(r0, r1, n, d - r1) * z.rightCols(d - r1).transpose();
    shares[static_cast<std::size_t>(index)].noalias() = z.middleCols(r0, n) * out;
  };
  ForEachPart(pool, parts, rows_of_gains);
  Matrix gram = shares.front();
  for (int index = 1; index < parts; ++index) gram += shares[static_cast<std::size_t>(index)];
  return gram;
}

// P -= V Vᵀ with V = U L⁻ᵀ (S = L Lᵀ). With parts: V a panel of rows a part
// (each row solved on its own), then the triangle's rows of one part of
// `row_bounds` a thread, their diagonal block and their rows right of it.
template <class Real, class Covariance, class Gains, class Cholesky>
void DowndateCovariance(ThreadPool* pool, std::span<const int> row_bounds,
                        Covariance& covariance, const Gains& gains, const Cholesky& cholesky) {
  using Matrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>;
  const int d = static_cast<int>(covariance.rows());
  const int parts = static_cast<int>(row_bounds.size()) - 1;
  if (parts == 1) {
    const Matrix half = cholesky.matrixL().solve(gains.transpose()).transpose();
    covariance.template selfadjointView<Eigen::Upper>().rankUpdate(half, Real{-1});
    return;
  }
  Matrix half(d, gains.cols());
  auto rows_of_half = [&](int index) {
    const auto [r0, n] = Panel(d, parts, index);
    half.middleRows(r0, n) =
        cholesky.matrixL().solve(gains.middleRows(r0, n).transpose()).transpose();
  };
  ForEachPart(pool, parts, rows_of_half);
  auto rows_of_update = [&](int index) {
    const int r0 = row_bounds[index], r1 = row_bounds[index + 1], n = r1 - r0;
    covariance.block(r0, r0, n, n).template selfadjointView<Eigen::Upper>().rankUpdate(
        half.middleRows(r0, n), Real{-1});
    if (r1 < d) {
      covariance.block(r0, r1, n, d - r1).noalias() -=
          half.middleRows(r0, n) * half.bottomRows(d - r1).transpose();
    }
  };
  ForEachPart(pool, parts, rows_of_update);
}

// Returns false, and changes neither P nor the weights, when the block would
// make the model non-finite (see BlockUpdateArguments).
template <class Real>
bool BlockUpdate(const BlockUpdateArguments<Real>& block) {
  using Matrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>;
  using RowMatrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const int d = block.dimension;
  const int k = block.block_size;
  Eigen::Map<RowMatrix, 0, Eigen::OuterStride<>> covariance(block.covariance, d, d,
                                                            Eigen::OuterStride<>(block.stride));
  const Eigen::Map<const RowMatrix> z(block.features, k, d);
  const Eigen::Map<const RowMatrix> y(block.targets, k, block.num_outputs);
  Eigen::Map<Matrix> w(block.weights, d, block.num_outputs);
  const int parts = static_cast<int>(block.row_bounds.size()) - 1;
  // Woodbury: U = P Zᵀ, S = I + Z U = L Lᵀ, residuals R = Y - Z W.
  Eigen::Map<Matrix> gains(block.scratch, d, k);
  Matrix system = GainsAndGram<Real>(block.pool, parts, covariance, z, gains);
  system.diagonal().array() += 1;
  const Eigen::LLT<Matrix> cholesky(system);
  // The sequential a-priori errors are the residuals whitened by the unit
  // lower triangular factor of S: E = diag(L) L⁻¹ R (the innovations), and
  // sample s's error has variance factor c_s = L(s, s)².
  const Matrix whitened = cholesky.matrixL().solve(y - z * w);
  Eigen::Map<RowMatrix> priors(block.priors, k, block.num_outputs);
  priors = y - cholesky.matrixLLT().diagonal().asDiagonal() * whitened;
  for (int s = 0; s < k; ++s) {
    block.error_variance_factors[s] = cholesky.matrixLLT()(s, s) * cholesky.matrixLLT()(s, s);
  }
  // W += U S⁻¹ R;  P -= U S⁻¹ Uᵀ = V Vᵀ with V = U L⁻ᵀ.
  Matrix updated = w;
  updated.noalias() += gains * cholesky.matrixU().solve(whitened);
  // The squared errors weighted by 1/c feed the noise estimate, as the RLS
  // adds them. (A NaN anywhere in Z makes the whole factorization NaN.)
  bool finite = cholesky.info() == Eigen::Success && updated.allFinite() && gains.allFinite();
  for (int output = 0; output < block.num_outputs && finite; ++output) {
    Real noise_sum = block.noise_sums[output];
    for (int s = 0; s < k; ++s) {
      const Real error = y(s, output) - priors(s, output);
      noise_sum += error * error / block.error_variance_factors[s];
    }
    finite = std::isfinite(noise_sum);
  }
  if (!finite) return false;
  w = updated;
  DowndateCovariance<Real>(block.pool, block.row_bounds, covariance, gains, cholesky);
  return true;
}

// gram (lower triangle, dimension × dimension, row-major) += rowsᵀ rows, for
// `count` rows of `dimension`: the information of a block of samples
// (information_delta.h), one symmetric rank-k product added to the sums
// in place (a separate product and sum would pass over D² numbers again).
template <class Real>
void AddBlockGram(Real* gram, int dimension, const Real* rows, int count) {
  using RowMatrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<RowMatrix> result(gram, dimension, dimension);
  const Eigen::Map<const RowMatrix> block(rows, count, dimension);
  result.template selfadjointView<Eigen::Lower>().rankUpdate(block.transpose());
}

// For a symmetric positive definite matrix (dimension × dimension,
// row-major; only its lower triangle is read), by one Cholesky
// factorization: inverse = matrix⁻¹, and each of `count` right-hand sides
// (runs of dimension) replaced by matrix⁻¹ times it, solved rather than
// multiplied by the inverse. False when the matrix is not positive definite
// or a result not finite. For the information form (merge.h).
bool SolvePositiveDefinite(const double* matrix, int dimension, double* inverse,
                           double* right_sides, int count) {
  using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using ColumnMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic>;
  const Eigen::Map<const RowMatrix> a(matrix, dimension, dimension);
  const Eigen::LLT<RowMatrix, Eigen::Lower> cholesky(a);
  if (cholesky.info() != Eigen::Success) return false;
  Eigen::Map<RowMatrix> result(inverse, dimension, dimension);
  result.setIdentity();
  cholesky.matrixL().solveInPlace(result);
  cholesky.matrixU().solveInPlace(result);
  Eigen::Map<ColumnMatrix> sides(right_sides, dimension, count);
  if (count > 0) cholesky.solveInPlace(sides);
  return result.allFinite() && (count == 0 || sides.allFinite());
}

}  // namespace
}  // namespace rffstream::internal

#undef Eigen

#endif  // RFFSTREAM_INTERNAL_BLOCK_UPDATE_KERNEL_H_
