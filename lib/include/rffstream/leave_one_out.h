// File: rffstream/leave_one_out.h
//
// Exact leave-one-out errors of ridge regression on fixed features, for a
// whole grid of ridges at the price of one eigendecomposition. With Z the
// n × D feature rows and its thin decomposition Z = U diag(σ) Vᵀ (from the
// eigenvectors of the smaller of ZᵀZ and ZZᵀ), the ridge fit is
//
//   ŷ(λ) = U diag(σ² / (σ² + λ)) Uᵀ y,   H_ii(λ) = Σ_j U_ij² σ_j² / (σ_j² + λ),
//
// and the leave-one-out residual of row i is (y_i − ŷ_i) / (1 − H_ii): what
// the model fitted on the other n − 1 rows would have missed row i by. Each
// further λ costs O(n · rank), no refit.
//
//   std::vector<double> ridges = {1e-3, 1e-2, 1e-1, 1};
//   absl::StatusOr<rffstream::LeaveOneOutTable> errors =
//       rffstream::LeaveOneOutErrors(features, rows, num_features, targets, 1, ridges);
//   // errors->squared_error[k]: the mean squared leave-one-out residual with ridges[k]
#ifndef RFFSTREAM_LEAVE_ONE_OUT_H_
#define RFFSTREAM_LEAVE_ONE_OUT_H_

#include <span>
#include <vector>

#include "absl/status/statusor.h"

namespace rffstream {

// What a leave-one-out error counts.
enum class LeaveOneOutCriterion {
  // The mean over rows and outputs of the squared residuals.
  kSquaredError,
  // One-vs-rest outputs (+1 for the class, -1 elsewhere): the fraction of
  // rows whose left-out prediction has its largest output at another class.
  kMisclassification,
};

// The leave-one-out errors for each ridge, by both criteria (one
// decomposition serves both).
// Each error comes with its standard error: the spread of the rows' own
// errors over √rows, how far another window of the same stream might put it.
struct LeaveOneOutTable {
  std::vector<double> squared_error;     // kSquaredError, one per ridge
  std::vector<double> misclassification;  // kMisclassification, one per ridge
  std::vector<double> squared_error_spread;     // their standard errors
  std::vector<double> misclassification_spread;
  const std::vector<double>& by(LeaveOneOutCriterion criterion) const {
    return criterion == LeaveOneOutCriterion::kSquaredError ? squared_error : misclassification;
  }
  const std::vector<double>& spread_by(LeaveOneOutCriterion criterion) const {
    return criterion == LeaveOneOutCriterion::kSquaredError ? squared_error_spread
                                                            : misclassification_spread;
  }
};

// `features`: `rows` rows of `dimension` numbers (row-major); `targets`:
// `rows` rows of `outputs` numbers. Errors: fewer than two rows, sizes that
// do not match, a ridge that is not positive, a number that is not finite, a
// decomposition that does not converge.
[[nodiscard]] absl::StatusOr<LeaveOneOutTable> LeaveOneOutErrors(
    std::span<const double> features, int rows, int dimension, std::span<const double> targets,
    int outputs, std::span<const double> ridges);

}  // namespace rffstream

#endif  // RFFSTREAM_LEAVE_ONE_OUT_H_
