#include "rffstream/stream/model_stage.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "rffstream/stream/task_outputs.h"

namespace rffstream {

template <class Real>
absl::Status ModelStage<Real>::SetTask(const Task& task) {
  if (settings_.with_variance && task.num_outputs() > 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--variance is for a single regression target; the model has ", task.num_outputs(),
        " outputs"));
  }
  if (settings_.with_variance && settings_.block_size > 1) {
    return absl::InvalidArgumentError(
        "--variance needs each prediction before the next update: use it with --block=1");
  }
  task_ = task;
  classification_ = ClassificationMetrics(task_.num_classes);
  const auto outputs = static_cast<std::size_t>(task_.num_outputs());
  target_metrics_.assign(outputs, RegressionMetrics());
  target_range_ = TargetRange(task_.is_classifier() ? 0 : task_.num_outputs());
  model_targets_.assign(outputs, Real{0});
  priors_.assign(outputs, Real{0});
  answer_.reserve(std::max<std::size_t>(outputs, 2));
  outputs_in_double_.reserve(outputs);
  return absl::OkStatus();
}

template <class Real>
void ModelStage<Real>::Start(BasicLearner<Real> learner) {
  learner_.emplace(std::move(learner));
  // Threads share learning's work (predicting needs none), at most one a
  // part of it.
  const int threads = std::min(settings_.threads > 0
                                   ? settings_.threads
                                   : ThreadPool::RecommendedThreads(learner_->row_length(),
                                                                    ThreadPool::AvailableCores()),
                               learner_->rls().parts());
  if (settings_.learns && threads > 1) {
    if (pool_ == nullptr || pool_->size() != threads) pool_ = std::make_shared<ThreadPool>(threads);
    learner_->SetThreadPool(pool_);
  }
  feature_row_.assign(static_cast<std::size_t>(learner_->row_length()), Real{0});
  if (task_.drift_from_stream && settings_.learns) {
    drift_.emplace(task_.num_inputs(), task_.num_outputs());
  }
  // The ridge follows the stream when the window chose it (ridge_follower.h).
  ridge_.reset();
  const LearnerConfig& config = learner_->config();
  if (task_.ridge_from_warm_up && settings_.ridge_follows && settings_.learns &&
      delta_ == nullptr && config.loss == Loss::kSquared && config.forgetting == 1.0) {
    ridge_.emplace(task_.num_outputs());
  }
  // So does the bandwidth, for regression (bandwidth_follower.h).
  bandwidth_.reset();
  if (ridge_ && task_.gamma_from_warm_up && settings_.bandwidth_follows && !task_.is_classifier() &&
      BandwidthFollower<Real>::CanFollow(config)) {
    bandwidth_.emplace(config);
  }
}

template <class Real>
bool ModelStage<Real>::Process(std::int64_t line_number, std::span<const double> inputs,
                               std::span<const Real> mapped_row, bool labelled,
                               std::span<const double> targets, OutcomeSink& sink) {
  const bool learns = labelled && settings_.learns;
  if (learns && settings_.block_size > 1) {
    return QueueForBlock(line_number, inputs, mapped_row, targets, sink);
  }
  // The block waiting is learned first (answers stay in input order); it
  // may change the feature map (a drift restart's width), and with it the
  // row.
  const std::int64_t map_changes = map_changes_;
  if (!FlushBlock(sink)) return false;
  std::span<const Real> row = map_changes == map_changes_ ? mapped_row : std::span<const Real>();
  if (row.empty()) {
    learner_->MapRow(inputs, feature_row_);
    row = feature_row_;
  }
  // The variance is that of the prediction made before learning.
  const Real variance =
      settings_.with_variance ? learner_->PredictRowWithVariance(row).variance : Real{0};
  if (learns && gathers_only_) return Gather(line_number, inputs, row, targets, variance, sink);
  if (learns) {
    EncodeTargets<Real>(task_, targets, model_targets_);
    if (drift_) drift_->Remember(line_number, inputs, model_targets_);
    if (!learner_->LearnRowOutputs(row, model_targets_, priors_)) {
      return Refuse(line_number, inputs, targets, sink);
    }
    if (delta_ != nullptr) AddToDelta(row, model_targets_, priors_, line_number);
    if (ridge_) ridge_->Learned(model_targets_);
    if (bandwidth_) bandwidth_->Learned(inputs, model_targets_);
    if (drift_ && drift_->Observe(line_number, model_targets_, priors_)) RestartOnDrift();
    FollowSettings(line_number);
    return Answer(line_number, priors_, variance, targets, /*learned=*/true, sink);
  }
  if (!labelled) ++predicted_only_;
  learner_->PredictRowOutputs(row, priors_);
  if (!AllFinite<Real>(priors_)) {
    return Refuse(line_number, inputs, labelled ? targets : std::span<const double>(), sink);
  }
  return Answer(line_number, priors_, variance, labelled ? targets : std::span<const double>(),
                /*learned=*/false, sink);
}

template <class Real>
bool ModelStage<Real>::QueueForBlock(std::int64_t line_number, std::span<const double> inputs,
                                     std::span<const Real> mapped_row,
                                     std::span<const double> targets, OutcomeSink& sink) {
  // With threads, a block keeps its inputs: LearnBlock maps them on the
  // pool's threads. (A data-parallel run's deltas need the rows.)
  // Chosen at a block's first line, so that a block never mixes the two.
  const bool keeps_inputs = block_line_numbers_.empty()
                                ? learner_->thread_pool() != nullptr && delta_ == nullptr
                                : !block_inputs_.empty();
  if (keeps_inputs) {
    block_inputs_.insert(block_inputs_.end(), inputs.begin(), inputs.end());
  } else {
    block_rows_.insert(block_rows_.end(), mapped_row.begin(), mapped_row.end());
    if (mapped_row.empty()) {
      learner_->MapRow(inputs, feature_row_);
      block_rows_.insert(block_rows_.end(), feature_row_.begin(), feature_row_.end());
    }
  }
  block_targets_.resize(block_targets_.size() + model_targets_.size());
  EncodeTargets<Real>(task_, targets,
                      std::span<Real>(block_targets_).last(model_targets_.size()));
  if (drift_ && drift_->Remember(line_number, inputs,
                                  std::span<Real>(block_targets_).last(model_targets_.size()))) {
    ++block_lines_remembered_;
  }
  // Kept for the bandwidth follower and to name a refused line's largest
  // number (when the block does not keep its inputs already).
  if (!keeps_inputs) block_lines_inputs_.insert(block_lines_inputs_.end(), inputs.begin(), inputs.end());
  block_labels_.insert(block_labels_.end(), targets.begin(), targets.end());
  block_line_numbers_.push_back(line_number);
  const auto pending = static_cast<std::int64_t>(block_line_numbers_.size());
  if (pending == settings_.block_size || (ridge_ && delta_ == nullptr && ridge_->DueAfter(pending))) {
    return FlushBlock(sink);
  }
  return true;
}

template <class Real>
bool ModelStage<Real>::FlushBlock(OutcomeSink& sink) {
  if (block_line_numbers_.empty()) return true;
  const std::size_t outputs = model_targets_.size();
  const auto labels = static_cast<std::size_t>(task_.num_targets());
  const auto row_length = static_cast<std::size_t>(learner_->row_length());
  block_priors_.resize(block_targets_.size());
  block_lines_remembered_ = 0;  // learned now
  if (gathers_only_) {
    PredictBlockForGathering();
  } else if (block_inputs_.empty()) {
    learner_->LearnRowBlock(block_rows_, block_targets_, block_priors_);
  } else {
    learner_->LearnBlock(block_inputs_, block_targets_, block_priors_);
  }
  // Every line of the block was learned or refused: all get their outcome,
  // even when the sink asks to stop at one of them.
  bool go_on = true;
  bool drifted = false;
  // A line's inputs, wherever the block kept them.
  const std::span<const double> kept =
      block_inputs_.empty() ? std::span<const double>(block_lines_inputs_) : block_inputs_;
  const auto kept_inputs = [&](std::size_t s) {
    const auto d = static_cast<std::size_t>(task_.num_inputs());
    return kept.subspan(s * d, d);
  };
  const bool bandwidth_keeps_lines = bandwidth_ && bandwidth_->keeps_lines();
  for (std::size_t s = 0; s < block_line_numbers_.size(); ++s) {
    const std::span<Real> priors = std::span<Real>(block_priors_).subspan(s * outputs, outputs);
    if (delta_ != nullptr && AllFinite<Real>(priors) &&
        !AddToDelta(std::span<const Real>(block_rows_).subspan(s * row_length, row_length),
                    std::span<const Real>(block_targets_).subspan(s * outputs, outputs), priors,
                    block_line_numbers_[s])) {
      priors[0] = std::numeric_limits<Real>::quiet_NaN();  // refused: not gathered
    }
    if (ridge_ && AllFinite<Real>(priors)) {
      ridge_->Learned(std::span<const Real>(block_targets_).subspan(s * outputs, outputs));
    }
    if (bandwidth_keeps_lines && AllFinite<Real>(priors)) {
      bandwidth_->Learned(kept_inputs(s),
                          std::span<const Real>(block_targets_).subspan(s * outputs, outputs));
    }
    if (drift_ && AllFinite<Real>(priors)) {
      drifted |= drift_->Observe(block_line_numbers_[s],
                                 std::span<const Real>(block_targets_).subspan(s * outputs, outputs),
                                 priors);
    }
    const bool taken =
        AllFinite<Real>(priors)
            ? Answer(block_line_numbers_[s], priors, Real{0},
                     std::span<const double>(block_labels_).subspan(s * labels, labels),
                     /*learned=*/true, sink)
            : Refuse(block_line_numbers_[s], kept_inputs(s),
                     std::span<const double>(block_labels_).subspan(s * labels, labels), sink);
    go_on = go_on && taken;
  }
  if (drifted) RestartOnDrift();  // the whole block was learned before
  FollowSettings(block_line_numbers_.back());
  block_rows_.clear();
  block_inputs_.clear();
  block_lines_inputs_.clear();
  block_targets_.clear();
  block_labels_.clear();
  block_line_numbers_.clear();
  return go_on;
}

template <class Real>
void ModelStage<Real>::LearnWithoutAnswer(std::int64_t line_number,
                                          std::span<const double> inputs,
                                          std::span<const double> targets) {
  learner_->MapRow(inputs, feature_row_);
  EncodeTargets<Real>(task_, targets, model_targets_);
  if (drift_) drift_->Remember(line_number, inputs, model_targets_);
  // A refused line was answered already; it is simply not learned.
  if (!learner_->LearnRowOutputs(feature_row_, model_targets_, priors_)) return;
  if (!task_.is_classifier()) target_range_.Add(targets);
  if (delta_ != nullptr) AddToDelta(feature_row_, model_targets_, priors_, line_number);
  if (ridge_) ridge_->Learned(model_targets_);
  if (bandwidth_) bandwidth_->Learned(inputs, model_targets_);
}

template <class Real>
void ModelStage<Real>::EndWarmUp() {
  if (ridge_ && learner_) ridge_->WindowEnded(learner_->samples_learned(), learner_->config().ridge);
  if (bandwidth_ && learner_) {
    bandwidth_->WindowEnded(learner_->samples_learned(), learner_->config().features.gamma);
  }
  warm_up_.regression = metrics_;
  warm_up_.after = RegressionMetrics();
  warm_up_ended_ = true;
  warm_up_.classified = classification_.count();
  warm_up_.classified_right = classification_.correct();
}

template class ModelStage<float>;
template class ModelStage<double>;

}  // namespace rffstream
