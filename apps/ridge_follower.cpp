#include "ridge_follower.h"

#include <algorithm>
#include <limits>

#include "rffstream/ridge_by_gcv.h"

namespace rffstream::app {

template <class Real>
RidgeFollower<Real>::RidgeFollower(int num_outputs)
    : target_squares_(static_cast<std::size_t>(num_outputs), 0.0),
      next_choice_(std::numeric_limits<std::int64_t>::max()) {}

template <class Real>
void RidgeFollower<Real>::WindowEnded(std::int64_t samples) {
  window_lines_ = std::max<std::int64_t>(samples, 1);
  next_choice_ = kFirstMultiple * window_lines_;
}

template <class Real>
void RidgeFollower<Real>::Learned(std::span<const Real> targets) {
  for (std::size_t output = 0; output < target_squares_.size(); ++output) {
    const double target = targets[output];
    target_squares_[output] += target * target;
  }
  ++samples_;
}

template <class Real>
void RidgeFollower<Real>::Restarted(std::span<const Real> targets) {
  std::fill(target_squares_.begin(), target_squares_.end(), 0.0);
  samples_ = 0;
  for (std::size_t row = 0; row + target_squares_.size() <= targets.size();
       row += target_squares_.size()) {
    Learned(targets.subspan(row, target_squares_.size()));
  }
  // The restarted model grows from few lines again: its first choice comes
  // when it has learned as many as the first one after the window.
  if (window_lines_ > 0) next_choice_ = kFirstMultiple * window_lines_;
}

template <class Real>
void RidgeFollower<Real>::MaybeRechoose(std::int64_t line, BasicLearner<Real>& learner) {
  if (samples_ < next_choice_) return;
  next_choice_ = samples_ * kGrowth;
  absl::StatusOr<typename BasicRls<Real>::InformationForm> form = learner.rls().ToInformationForm();
  if (!form.ok()) return;  // the model goes on with its ridge
  const double ridge = learner.config().ridge;
  const auto dimension = static_cast<std::size_t>(learner.rls().dimension());
  for (std::size_t i = 0; i < dimension; ++i) form->information[i * dimension + i] -= ridge;
  absl::StatusOr<RidgeChoice> choice =
      ChooseRidgeByGcv(form->information, form->target_sums, target_squares_, samples_, ridge,
                       RidgeCandidates());
  if (!choice.ok() || choice->ridge == ridge || !(choice->score < choice->current_score)) return;
  if (learner.SetRidge(choice->ridge).ok()) {
    changes_.push_back({line, samples_, ridge, choice->ridge});
  }
}

template class RidgeFollower<float>;
template class RidgeFollower<double>;

}  // namespace rffstream::app
