#include "rffstream/leave_one_out.h"

#include <algorithm>
#include <cmath>

#include "Eigen/Dense"
#include "absl/strings/str_cat.h"

namespace rffstream {
namespace {

using Matrix = Eigen::MatrixXd;
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

bool AllFinite(std::span<const double> values) {
  return std::all_of(values.begin(), values.end(), [](double value) { return std::isfinite(value); });
}

absl::Status CheckInputs(std::span<const double> features, int rows, int dimension,
                         std::span<const double> targets, int outputs,
                         std::span<const double> ridges) {
  if (rows < 2 || dimension < 1 || outputs < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "leave-one-out: needs at least 2 rows, 1 feature and 1 output, got ", rows, ", ",
        dimension, " and ", outputs));
  }
  if (features.size() != static_cast<std::size_t>(rows) * dimension ||
      targets.size() != static_cast<std::size_t>(rows) * outputs) {
    return absl::InvalidArgumentError(absl::StrCat(
        "leave-one-out: ", features.size(), " feature values and ", targets.size(),
        " targets do not fit ", rows, " rows of ", dimension, " features and ", outputs, " outputs"));
  }
  if (!AllFinite(features) || !AllFinite(targets)) {
    return absl::InvalidArgumentError("leave-one-out: a feature or target is not finite");
  }
  for (double ridge : ridges) {
    if (!(ridge > 0 && std::isfinite(ridge))) {
      return absl::InvalidArgumentError(absl::StrCat("leave-one-out: ridge ", ridge, " is not positive"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<LeaveOneOutTable> LeaveOneOutErrors(std::span<const double> features, int rows,
                                                   int dimension, std::span<const double> targets,
                                                   int outputs, std::span<const double> ridges) {
  if (absl::Status usable = CheckInputs(features, rows, dimension, targets, outputs, ridges);
      !usable.ok()) {
    return usable;
  }
  const Eigen::Map<const RowMatrix> z(features.data(), rows, dimension);
  const Eigen::Map<const RowMatrix> y(targets.data(), rows, outputs);
  // U (rows × rank) and σ² from the eigendecomposition of the smaller Gram
  // matrix: ZZᵀ = U diag(σ²) Uᵀ directly, or ZᵀZ = V diag(σ²) Vᵀ and U = Z V / σ.
  Matrix left;
  Eigen::VectorXd squared_singular_values;
  const auto not_converged = absl::InternalError("leave-one-out: the eigendecomposition did not converge");
  if (rows <= dimension) {
    const Eigen::SelfAdjointEigenSolver<Matrix> eigen(z * z.transpose());
    if (eigen.info() != Eigen::Success) return not_converged;
    left = eigen.eigenvectors();
    squared_singular_values = eigen.eigenvalues();
  } else {
    const Eigen::SelfAdjointEigenSolver<Matrix> eigen(z.transpose() * z);
    if (eigen.info() != Eigen::Success) return not_converged;
    squared_singular_values = eigen.eigenvalues();
    left = z * eigen.eigenvectors();
    for (int j = 0; j < dimension; ++j) {
      const double sigma_squared = squared_singular_values[j];
      // Directions Z does not excite add nothing to the fit.
      left.col(j) *= sigma_squared > 0 ? 1.0 / std::sqrt(sigma_squared) : 0.0;
    }
  }
  squared_singular_values = squared_singular_values.cwiseMax(0.0);  // rounding below zero
  const Matrix projected = left.transpose() * y;           // Uᵀ Y, rank × outputs
  const Matrix left_squared = left.array().square();       // U_ij²
  LeaveOneOutTable table;
  for (double ridge : ridges) {
    const Eigen::VectorXd shrink =
        squared_singular_values.array() / (squared_singular_values.array() + ridge);
    const Matrix fitted = left * (shrink.asDiagonal() * projected);
    const Eigen::VectorXd leverage = left_squared * shrink;
    double squared = 0, squared_of_squared = 0, missed = 0;
    for (int i = 0; i < rows; ++i) {
      // H_ii < 1 for λ > 0; guard the rounding of a row the fit nearly interpolates.
      const double remaining = std::max(1.0 - leverage[i], 1e-12);
      const Eigen::RowVectorXd residual = (y.row(i) - fitted.row(i)) / remaining;
      const double row_error = residual.squaredNorm() / outputs;
      squared += row_error;
      squared_of_squared += row_error * row_error;
      Eigen::Index predicted = 0, actual = 0;
      (y.row(i) - residual).maxCoeff(&predicted);  // the left-out prediction
      y.row(i).maxCoeff(&actual);
      missed += predicted == actual ? 0.0 : 1.0;
    }
    const double n = rows;
    const double mean = squared / n, miss_rate = missed / n;
    table.squared_error.push_back(mean);
    table.misclassification.push_back(miss_rate);
    table.squared_error_spread.push_back(
        std::sqrt(std::max(squared_of_squared / n - mean * mean, 0.0) / (n - 1)));
    table.misclassification_spread.push_back(std::sqrt(miss_rate * (1 - miss_rate) / (n - 1)));
  }
  return table;
}

}  // namespace rffstream
