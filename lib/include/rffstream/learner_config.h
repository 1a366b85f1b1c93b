// File: rffstream/learner_config.h
//
// The plain configuration of a Learner: the feature map plus the ridge
// regression on top of it. Validate() names the first problem it finds.
#ifndef RFFSTREAM_LEARNER_CONFIG_H_
#define RFFSTREAM_LEARNER_CONFIG_H_

#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rffstream/feature_map_config.h"

namespace rffstream {

// What the learner minimizes.
enum class Loss {
  // Ridge regression (recursive least squares): every sample updates the
  // model; all outputs share one P.
  kSquared,
  // Large-margin classification: AROW (Crammer, Kulesza & Dredze 2009,
  // "Adaptive Regularization of Weight Vectors") on each output, with a
  // covariance of its own. A target's sign is the output's label y = ±1 (one
  // output per class for one-vs-rest). An output with y f >= 1 (outside its
  // margin) is left as it is; one inside takes AROW's step, which with
  // Σ = r P is exactly one RLS step of that output toward its label:
  //   c = 1 + zᵀPz,  w += P z (y - f) / c,  P -= P z zᵀP / c
  // (AROW: w += (1 - y f) β y Σz, Σ -= β Σz zᵀΣ, β = 1 / (zᵀΣz + r); and
  // (1 - y f) y = y - f). Σ₀ = a I is P₀ = I / λ with λ = r / a: the ridge
  // plays AROW's regularizer. Each output holds a D × D matrix, and a sample
  // costs one O(D²) pass per output inside its margin.
  kHinge,
};
std::string_view LossName(Loss loss);
[[nodiscard]] absl::StatusOr<Loss> ParseLoss(std::string_view name);

struct LearnerConfig {
  FeatureMapConfig features;
  // λ in w = (λ I + Σ z zᵀ)⁻¹ Σ z y. Features have ‖z‖² ≈ 1, so λ is roughly
  // "how many samples' worth" of pull toward zero weights. In [kMinRidge, kMaxRidge].
  double ridge = 1e-2;
  static constexpr double kMinRidge = 1e-12;
  static constexpr double kMaxRidge = 1e12;
  // β in (0, 1]: a sample t steps old weighs β^t. 1 = ordinary ridge regression.
  double forgetting = 1.0;
  // Append a constant feature 1 (regularized like the others) to fit an offset.
  bool intercept = true;
  // Targets learned together: they share the features and, with the squared
  // loss, P, so each extra output costs only a weight update (one-vs-rest
  // classification uses one output per class). The hinge loss keeps one P
  // per output.
  int num_outputs = 1;
  Loss loss = Loss::kSquared;

  [[nodiscard]] absl::Status Validate() const;

  // About how many bytes a Learner of this configuration holds, with
  // `bytes_per_number` 4 (float) or 8 (double): P, D × D numbers in the
  // padded triangle's rows (one per output with the hinge loss), dominates;
  // then the frequencies (two copies, one of them double while a float map
  // is built) and two copies of the weights; with blocks of `block_size`,
  // their rows and the factor form's second factor (two more in bulk,
  // BasicRls::kBulkSamples). For refusing a model before allocating it.
  double MemoryBytes(int bytes_per_number, int block_size = 1) const;
};

}  // namespace rffstream

#endif  // RFFSTREAM_LEARNER_CONFIG_H_
