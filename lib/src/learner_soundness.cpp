// BasicLearner::CheckSound: what a model that lost its numerical soundness
// says, and which setting would have kept it sound.
#include <cmath>

#include "absl/strings/str_cat.h"
#include "rffstream/learner.h"

namespace rffstream {

template <class Real>
absl::Status BasicLearner<Real>::CheckSound() const {
  for (const BasicRls<Real>& engine : rls_) {
    switch (engine.soundness()) {
      case BasicRls<Real>::Soundness::kSound:
        continue;
      case BasicRls<Real>::Soundness::kLostDefiniteness:
        return absl::FailedPreconditionError(absl::StrCat(
            "numerical precision lost after ", samples_learned_,
            " samples: P = (ridge I + sum z z^T)^-1 is no longer positive definite in the "
            "covariance form (float", 8 * sizeof(Real), "); a ridge of ", config_.ridge,
            " is too small for this stream at this precision: use a larger --ridge (or auto), "
            "or --precision=float32, whose square-root form cannot lose it (float64 uses that "
            "form below a ridge of ", BasicRls<Real>::kSmallestCovarianceRidge, ")"));
      case BasicRls<Real>::Soundness::kOutgrewPrecision:
        return absl::FailedPreconditionError(absl::StrCat(
            "numerical range exceeded after ", samples_learned_, " samples: P grew past what float",
            8 * sizeof(Real), " holds, because forgetting ", config_.forgetting, " over ",
            config_.features.num_features, " features (forgetting^D = ",
            std::pow(config_.forgetting, config_.features.num_features),
            ") fades the ridge between the refreshes of a direction faster than they restore "
            "it: use fewer features or a forgetting factor closer to 1 (D (1 - forgetting) "
            "below about 30)"));
    }
  }
  return absl::OkStatus();
}

template absl::Status BasicLearner<float>::CheckSound() const;
template absl::Status BasicLearner<double>::CheckSound() const;

}  // namespace rffstream
