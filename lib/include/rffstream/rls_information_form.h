// File: rffstream/rls_information_form.h
//
// An RLS state as ridge regression's sufficient statistics (meaningful with
// β = 1): the information matrix A = P⁻¹ = λI + Σ z zᵀ and, per output,
// b = A w = Σ z y; with the noise estimate's sums. Models learned on
// disjoint samples from one start add up in this form (merge.h); data-
// parallel ranks sum their samples' part of it (information_delta.h). In
// double whatever the model's precision (BasicRls::ToInformationForm,
// SetInformationForm).
#ifndef RFFSTREAM_RLS_INFORMATION_FORM_H_
#define RFFSTREAM_RLS_INFORMATION_FORM_H_

#include <vector>

#include "absl/status/statusor.h"

namespace rffstream {

struct RlsInformationForm {
  std::vector<double> information;  // A: dimension × dimension, row-major
  std::vector<double> target_sums;  // b of each output: one run of dimension each
  std::vector<double> noise_sums;   // one per output
  double noise_weight = 0;
  // Optional (β = 1), one per output: Σ y² over the prior's samples and the
  // form's. SetInformationForm then sets the noise sums to the least squares
  // cost Σ y² − bᵀw, which is what learning the same samples one at a time
  // sums, instead of taking noise_sums.
  std::vector<double> target_squares;
  // With forgetting: the coordinate the next sample's refresh goes to.
  int next_refreshed_coordinate = 0;
};

// bᵀ A⁻¹ b of each output, the part of Σ y² the ridge solution explains, in
// double by one Cholesky factorization (O(D³)) as ‖L⁻¹ b‖²;
// FailedPrecondition if A is not positive definite.
[[nodiscard]] absl::StatusOr<std::vector<double>> ExplainedSquares(const RlsInformationForm& form);

}  // namespace rffstream

#endif  // RFFSTREAM_RLS_INFORMATION_FORM_H_
