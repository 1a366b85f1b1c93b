// ModelStage and its checkpoints: a model resumed with its metrics, the
// ridge it follows and its drift tracking, and the snapshot that is saved.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "rffstream/stream/model_stage.h"

namespace rffstream {

template <class Real>
absl::Status ModelStage<Real>::Resume(BasicCheckpoint<Real> checkpoint) {
  if (absl::Status status = SetTask(checkpoint.record.task); !status.ok()) return status;
  Start(std::move(checkpoint.learner));
  // The ridge goes on following as it did (a file of format 7 or older, or
  // of a model whose ridge did not follow, has no state: it keeps its ridge).
  const RidgeFollowState& follow = checkpoint.record.ridge_follow;
  if (!ridge_ || follow.window_samples == 0 ||
      follow.target_squares.size() != static_cast<std::size_t>(task_.num_outputs())) {
    ridge_.reset();
  } else {
    ridge_.emplace(follow);
  }
  // The bandwidth likewise (none before format 10: it keeps its width).
  if (bandwidth_ && ridge_) {
    bandwidth_.emplace(learner_->config(), checkpoint.record.bandwidth_follow);
    bandwidth_->WindowEnded(ridge_->state().window_samples,
                            checkpoint.record.bandwidth_follow.window_gamma);
  } else {
    bandwidth_.reset();
  }
  // So does the drift tracking (a file of format 8 or older has none: it
  // starts afresh).
  const DriftTrackingState& tracking = checkpoint.record.drift_tracking;
  if (drift_ && !tracking.detectors.empty() && !drift_->Restore(tracking)) {
    return absl::DataLossError(
        "the checkpoint's drift tracking state does not fit its model's inputs and targets");
  }
  if (settings_.learns) SetMetrics(checkpoint.record);
  drift_restarts_before_ = checkpoint.record.drift_restarts;
  // Clipped as before (a file of format 13 or older starts an empty range).
  if (checkpoint.record.target_range.num_outputs() == target_range_.num_outputs()) {
    target_range_ = checkpoint.record.target_range;
  }
  return absl::OkStatus();
}

template <class Real>
void ModelStage<Real>::SetMetrics(const CheckpointRecord& record) {
  metrics_ = record.metrics;
  target_metrics_[0] = metrics_;
  const std::vector<RegressionMetrics>& further = record.further_targets;
  std::copy(further.begin(), further.end(), target_metrics_.begin() + 1);
  if (task_.is_classifier()) classification_ = record.classification;
  warm_up_ = record.warm_up;
  warm_up_ended_ = true;
}

template <class Real>
BasicCheckpoint<Real> ModelStage<Real>::Snapshot() const {
  const bool several_targets = !task_.is_classifier() && target_metrics_.size() > 1;
  return BasicCheckpoint<Real>{
      *learner_, CheckpointRecord{task_, metrics_, classification_,
                                  several_targets
                                      ? std::vector<RegressionMetrics>(target_metrics_.begin() + 1,
                                                                       target_metrics_.end())
                                      : std::vector<RegressionMetrics>(),
                                  warm_up_,
                                  drift_restarts_before_ + restarts_with_other_ranks_ +
                                      static_cast<std::int64_t>(drift_ ? drift_->drifts().size() : 0),
                                  ridge_ ? ridge_->state() : RidgeFollowState(),
                                  drift_ ? TrackingStateToSave() : DriftTrackingState(),
                                  BandwidthStateToSave(), target_range_}};
}

template <class Real>
BandwidthFollowState ModelStage<Real>::BandwidthStateToSave() const {
  if (!bandwidth_) return BandwidthFollowState();
  BandwidthFollowState state = bandwidth_->state();
  if (delta_ != nullptr || !bandwidth_->keeps_lines()) {
    state.choices_left = 0;
    state.inputs.clear();
    state.targets.clear();
  }
  return state;
}

template <class Real>
DriftTrackingState ModelStage<Real>::TrackingStateToSave() const {
  DriftTrackingState state = drift_->State(block_lines_remembered_);
  // A missing input is kept as what the feature map reads in its place, the
  // input's mean: the same features, and a checkpoint holds no NaN.
  const std::vector<double>& means = learner_->config().features.input_offset;
  for (std::size_t i = 0; i < state.inputs.size(); ++i) {
    if (std::isnan(state.inputs[i])) state.inputs[i] = means.empty() ? 0.0 : means[i % means.size()];
  }
  return state;
}

template <class Real>
absl::Status ModelStage<Real>::Save(const std::string& path) const {
  if (absl::Status sound = CheckSound(); !sound.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat(path, " not saved (it keeps the last good model): ", sound.message()));
  }
  const BasicCheckpoint<Real> checkpoint = Snapshot();
  return SaveCheckpoint(path, checkpoint.learner, checkpoint.record);
}

template absl::Status ModelStage<float>::Resume(BasicCheckpoint<float>);
template absl::Status ModelStage<double>::Resume(BasicCheckpoint<double>);
template void ModelStage<float>::SetMetrics(const CheckpointRecord&);
template void ModelStage<double>::SetMetrics(const CheckpointRecord&);
template BasicCheckpoint<float> ModelStage<float>::Snapshot() const;
template BasicCheckpoint<double> ModelStage<double>::Snapshot() const;
template DriftTrackingState ModelStage<float>::TrackingStateToSave() const;
template DriftTrackingState ModelStage<double>::TrackingStateToSave() const;
template BandwidthFollowState ModelStage<float>::BandwidthStateToSave() const;
template BandwidthFollowState ModelStage<double>::BandwidthStateToSave() const;
template absl::Status ModelStage<float>::Save(const std::string&) const;
template absl::Status ModelStage<double>::Save(const std::string&) const;

}  // namespace rffstream
