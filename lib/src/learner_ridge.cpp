// BasicLearner::SetRidge: a new λ for a model of β = 1, exactly, through
// its information form.
#include <cmath>

#include "absl/strings/str_cat.h"
#include "rffstream/learner.h"

namespace rffstream {

template <class Real>
absl::Status BasicLearner<Real>::SetRidge(double ridge) {
  if (!(ridge > 0 && std::isfinite(ridge))) {
    return absl::FailedPreconditionError(absl::StrCat("ridge ", ridge, " is not positive"));
  }
  if (config_.forgetting != 1.0 || config_.loss != Loss::kSquared) {
    return absl::FailedPreconditionError(
        "a new ridge needs the squared loss and no forgetting (the prior is λI only then)");
  }
  if (absl::Status sound = CheckSound(); !sound.ok()) return sound;
  if (absl::Status set = rls_.front().SetRidge(ridge); !set.ok()) return set;
  rls_.front().SetThreadPool(pool_);  // a form that changed takes the threads its form uses
  config_.ridge = ridge;
  return absl::OkStatus();
}

template absl::Status BasicLearner<float>::SetRidge(double);
template absl::Status BasicLearner<double>::SetRidge(double);

}  // namespace rffstream
