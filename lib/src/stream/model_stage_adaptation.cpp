// ModelStage's adaptation to the stream: the restarts of drift tracking
// (alone or with other ranks) and the settings that follow the stream as
// the model grows.
#include <utility>

#include "rffstream/stream/model_stage.h"

namespace rffstream {

template <class Real>
void ModelStage<Real>::RestartOnDrift() {
  const double ridge = learner_->config().ridge;
  if (!drift_->Restart(*learner_, ridge_ ? ridge_->window_ridge() : 0.0)) return;  // declined
  RestartFollowers(drift_->drifts().back().line, ridge);
  if (delta_ != nullptr) RefillDelta();
}

template <class Real>
void ModelStage<Real>::RestartWithOtherRanks() {
  const double ridge = learner_->config().ridge;
  drift_->RestartOnChangeSeenElsewhere(*learner_, ridge_ ? ridge_->window_ridge() : 0.0);
  RestartFollowers(last_learned_line_, ridge);
  ++restarts_with_other_ranks_;
  RefillDelta();
}

template <class Real>
void ModelStage<Real>::RestartFollowers(std::int64_t line, double ridge_before) {
  if (ridge_) ridge_->Restarted(line, ridge_before, drift_->relearned_targets());
  if (!bandwidth_) return;
  if (std::optional<BasicLearner<Real>> rebuilt = bandwidth_->Restarted(
          line, *learner_, drift_->relearned_inputs(), drift_->relearned_targets())) {
    ReplaceLearner(*std::move(rebuilt));
  }
}

template <class Real>
void ModelStage<Real>::RefillDelta() {
  delta_->Clear();
  const std::span<const double> inputs = drift_->relearned_inputs();
  const std::span<const Real> targets = drift_->relearned_targets();
  const auto d = static_cast<std::size_t>(learner_->input_dimension());
  const std::size_t outputs = model_targets_.size();
  for (std::size_t line = 0; line * d < inputs.size(); ++line) {
    learner_->MapRow(inputs.subspan(line * d, d), feature_row_);
    // Under drift tracking β = 1: a sample's clock weighs nothing.
    delta_->Add(feature_row_, targets.subspan(line * outputs, outputs));
  }
}

template <class Real>
void ModelStage<Real>::FollowSettings(std::int64_t line) {
  last_learned_line_ = line;
  // Data-parallel ranks share one model: its choices come at the merges.
  if (!ridge_ || delta_ != nullptr) return;
  // The bandwidth is chosen first, at the ridge's first choices; a model
  // rebuilt with another one comes with its ridge, chosen with it.
  if (bandwidth_ && ridge_->DueAfter(0)) {
    if (std::optional<BasicLearner<Real>> rebuilt = bandwidth_->MaybeRechoose(
            line, *learner_, /*ranks=*/nullptr, RestartedOnDrift())) {
      const double ridge = learner_->config().ridge;
      ReplaceLearner(*std::move(rebuilt));
      ridge_->Chose(line, ridge, learner_->config().ridge);
      return;
    }
  }
  ridge_->MaybeRechoose(line, *learner_);
}

template <class Real>
bool ModelStage<Real>::FollowBandwidthAtMerge(
    std::int64_t line, const typename BandwidthFollower<Real>::Ranks& ranks) {
  if (!bandwidth_ || !ridge_ || !ridge_->DueAfter(0)) return false;
  // Rank 0's view: a loaded model's restarts are known to it alone.
  const bool restarted = ranks.agree(RestartedOnDrift() ? 1.0 : 0.0) > 0;
  std::optional<BasicLearner<Real>> rebuilt =
      bandwidth_->MaybeRechoose(line, *learner_, &ranks, restarted);
  if (!rebuilt.has_value()) return false;
  const double ridge = learner_->config().ridge;
  ReplaceLearner(*std::move(rebuilt));
  ridge_->Chose(line, ridge, learner_->config().ridge);
  return true;
}

template <class Real>
bool ModelStage<Real>::RestartedOnDrift() const {
  return drift_restarts_before_ > 0 || restarts_with_other_ranks_ > 0 ||
         (drift_ && !drift_->drifts().empty());
}

template <class Real>
void ModelStage<Real>::ReplaceLearner(BasicLearner<Real> learner) {
  if (before_map_change_) before_map_change_();
  *learner_ = std::move(learner);
  ++map_changes_;
}

template void ModelStage<float>::ReplaceLearner(BasicLearner<float>);
template void ModelStage<double>::ReplaceLearner(BasicLearner<double>);
template void ModelStage<float>::RestartOnDrift();
template void ModelStage<double>::RestartOnDrift();
template void ModelStage<float>::RestartWithOtherRanks();
template void ModelStage<double>::RestartWithOtherRanks();
template void ModelStage<float>::RefillDelta();
template void ModelStage<double>::RefillDelta();
template bool ModelStage<float>::FollowBandwidthAtMerge(
    std::int64_t, const BandwidthFollower<float>::Ranks&);
template bool ModelStage<double>::FollowBandwidthAtMerge(
    std::int64_t, const BandwidthFollower<double>::Ranks&);
template bool ModelStage<float>::RestartedOnDrift() const;
template bool ModelStage<double>::RestartedOnDrift() const;
template void ModelStage<float>::RestartFollowers(std::int64_t, double);
template void ModelStage<double>::RestartFollowers(std::int64_t, double);
template void ModelStage<float>::FollowSettings(std::int64_t);
template void ModelStage<double>::FollowSettings(std::int64_t);

}  // namespace rffstream
