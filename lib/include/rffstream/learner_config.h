// File: rffstream/learner_config.h
//
// The plain configuration of a Learner: the feature map plus the ridge
// regression on top of it. Validate() names the first problem it finds.
#ifndef RFFSTREAM_LEARNER_CONFIG_H_
#define RFFSTREAM_LEARNER_CONFIG_H_

#include "absl/status/status.h"
#include "rffstream/feature_map_config.h"

namespace rffstream {

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
  // Targets learned together: they share the features and P, so each extra
  // output costs only a weight update (one-vs-rest classification uses one
  // output per class).
  int num_outputs = 1;

  [[nodiscard]] absl::Status Validate() const;

  // About how many bytes a Learner of this configuration holds, with
  // `bytes_per_number` 4 (float) or 8 (double): P, D × D numbers in the
  // padded triangle's rows, dominates; then the frequencies, twice, and two
  // copies of the weights. For refusing a model before allocating it.
  double MemoryBytes(int bytes_per_number) const;
};

}  // namespace rffstream

#endif  // RFFSTREAM_LEARNER_CONFIG_H_
