#include "rffstream/learner_config.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace rffstream {

absl::Status LearnerConfig::Validate() const {
  if (!std::isfinite(ridge) || ridge <= 0.0) {
    return absl::InvalidArgumentError(
        absl::StrCat("learner: ridge must be a positive finite number, got ", ridge));
  }
  if (!(forgetting > 0.0 && forgetting <= 1.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("learner: forgetting factor must be in (0, 1], got ", forgetting));
  }
  if (num_outputs < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("learner: num_outputs must be at least 1, got ", num_outputs));
  }
  return features.Validate();
}

}  // namespace rffstream
