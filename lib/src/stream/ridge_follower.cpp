#include "rffstream/stream/ridge_follower.h"

#include <algorithm>
#include <limits>
#include <type_traits>
#include <utility>


namespace rffstream {

template <class Real>
RidgeFollower<Real>::RidgeFollower(int num_outputs) {
  state_.target_squares.assign(static_cast<std::size_t>(num_outputs), 0.0);
}

template <class Real>
void RidgeFollower<Real>::WindowEnded(std::int64_t samples, double ridge) {
  state_.window_samples = std::max<std::int64_t>(samples, 1);
  state_.window_ridge = ridge;
  state_.next_choice = kFirstMultiple * state_.window_samples;
}

template <class Real>
void RidgeFollower<Real>::Learned(std::span<const Real> targets) {
  for (std::size_t output = 0; output < state_.target_squares.size(); ++output) {
    const double target = targets[output];
    state_.target_squares[output] += target * target;
  }
  ++state_.samples;
}

template <class Real>
void RidgeFollower<Real>::Restarted(std::int64_t line, double ridge_before,
                                    std::span<const Real> targets) {
  if (state_.window_samples > 0 && ridge_before != state_.window_ridge) {
    state_.changes.push_back({line, 0, ridge_before, state_.window_ridge});
  }
  std::fill(state_.target_squares.begin(), state_.target_squares.end(), 0.0);
  state_.samples = 0;
  const std::size_t outputs = state_.target_squares.size();
  for (std::size_t row = 0; row + outputs <= targets.size(); row += outputs) {
    Learned(targets.subspan(row, outputs));
  }
  // The restarted model grows from few lines again: its first choice comes
  // when it has learned as many as the first one after the window.
  if (state_.window_samples > 0) state_.next_choice = kFirstMultiple * state_.window_samples;
}

template <class Real>
std::vector<double> RidgeFollower<Real>::ReliableCandidates(double ridge, std::size_t dimension) {
  const double floor =
      kFloorFactor * static_cast<double>(dimension) * std::numeric_limits<Real>::epsilon() * ridge;
  std::vector<double> candidates;
  for (const double candidate : RidgeCandidates()) {
    if (candidate >= floor) candidates.push_back(candidate);
  }
  return candidates;
}

template <class Real>
void RidgeFollower<Real>::MaybeRechoose(std::int64_t line, BasicLearner<Real>& learner) {
  if (!DueAfter(0)) return;
  state_.next_choice = state_.samples * kGrowth;
  // A model that lost its precision stops learning; it is not changed.
  if (learner.rls().soundness() != BasicRls<Real>::Soundness::kSound) return;
  absl::StatusOr<typename BasicRls<Real>::InformationForm> form = learner.rls().ToInformationForm();
  if (!form.ok()) return;  // the model goes on with its ridge
  const double ridge = learner.config().ridge;
  const auto dimension = static_cast<std::size_t>(learner.rls().dimension());
  for (std::size_t i = 0; i < dimension; ++i) form->information[i * dimension + i] -= ridge;
  // float32's G, recovered from its factor, hides residuals below about
  // 10⁻⁷ of Σ y² (a stream fitted closely scores 0 at every ridge); its
  // noise sums, Σ e²/c = RSS + λ‖w‖² with β = 1, tell them.
  std::vector<double> costs;
  if constexpr (std::is_same_v<Real, float>) costs = form->noise_sums;
  const std::optional<RidgeChoice> choice =
      Gaining(form->information, form->target_sums, ridge, ReliableCandidates(ridge, dimension),
              costs);
  if (!choice.has_value() || choice->ridge == ridge) return;
  const double chosen = choice->ridge;
  // The form at hand takes the new ridge (as SetRidge would, which would
  // recover the form from the state again: O(D³) saved), and the noise
  // sums that ridge's cost, so that they keep telling it.
  for (std::size_t i = 0; i < dimension; ++i) form->information[i * dimension + i] += chosen;
  if (!costs.empty()) form->noise_sums = choice->regularized_costs;
  if (learner.SetInformationForm(*form, learner.samples_learned(), chosen).ok()) {
    state_.changes.push_back({line, state_.samples, ridge, chosen});
  }
}

template <class Real>
double RidgeFollower<Real>::BestRidge(std::span<const double> gram,
                                      std::span<const double> target_sums, double ridge,
                                      std::span<const double> candidates) const {
  const std::optional<RidgeChoice> choice = Gaining(gram, target_sums, ridge, candidates, {});
  return choice.has_value() ? choice->ridge : ridge;
}

template <class Real>
std::optional<RidgeChoice> RidgeFollower<Real>::Gaining(
    std::span<const double> gram, std::span<const double> target_sums, double ridge,
    std::span<const double> candidates, std::span<const double> current_costs) const {
  absl::StatusOr<RidgeChoice> choice =
      ChooseRidgeByGcv(gram, target_sums, state_.target_squares, state_.samples, ridge,
                       candidates, current_costs);
  // A change must gain more than kMinimumGain: GCV's curve is flat near its
  // least, where the rounding of another build (or another machine's
  // eigensolver) could flip the choice, and a negligible gain is no reason
  // to move.
  if (!choice.ok() || !(choice->score < (1 - kMinimumGain) * choice->current_score)) {
    return std::nullopt;
  }
  return *std::move(choice);
}

template <class Real>
void RidgeFollower<Real>::Chose(std::int64_t line, double from, double to) {
  state_.next_choice = state_.samples * kGrowth;
  if (from != to) state_.changes.push_back({line, state_.samples, from, to});
}

template <class Real>
void RidgeFollower<Real>::SetSums(std::int64_t samples, std::span<const double> target_squares) {
  state_.samples = samples;
  std::copy_n(target_squares.begin(), state_.target_squares.size(), state_.target_squares.begin());
}

template class RidgeFollower<float>;
template class RidgeFollower<double>;

}  // namespace rffstream
