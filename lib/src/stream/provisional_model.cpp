#include "rffstream/stream/provisional_model.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "rffstream/stream/model_options.h"
#include "rffstream/bandwidth.h"
#include "rffstream/input_statistics.h"
#include "rffstream/warm_up_tuning.h"
#include "rffstream/stream/task_outputs.h"
#include "rffstream/stream/warm_up.h"

namespace rffstream {

ProvisionalModel::ProvisionalModel(const ModelOptions& options, LearnerConfig config,
                                   const Task& task)
    : options_(options),
      config_(std::move(config)),
      task_(task),
      encoded_(static_cast<std::size_t>(task.num_outputs())),
      outputs_(encoded_.size()),
      offsets_(encoded_.size(), 0.0) {
  // Few features: a stand-in for a few hundred lines, refit a few times.
  FeatureMapConfig& features = config_.features;
  const int step = features.map == FeatureMapKind::kPair ? 2 : 1;
  features.num_features = std::min(features.num_features, kMaxFeatures / step * step);
  features.sampler = FrequencySampler::kIid;
  features.selection = {};
}

std::span<const double> ProvisionalModel::TargetMeans() {
  std::fill(outputs_.begin(), outputs_.end(), 0.0);
  if (lines_ == 0) return outputs_;
  for (int line = 0; line < lines_; ++line) {
    for (std::size_t k = 0; k < outputs_.size(); ++k) {
      outputs_[k] += targets_[static_cast<std::size_t>(line) * outputs_.size() + k];
    }
  }
  for (double& output : outputs_) output /= lines_;
  return outputs_;
}

std::span<const double> ProvisionalModel::Predict(std::span<const double> inputs) {
  if (!learner_.has_value()) return TargetMeans();
  learner_->PredictOutputs(inputs, outputs_);
  for (std::size_t k = 0; k < outputs_.size(); ++k) outputs_[k] += offsets_[k];
  const bool finite = std::all_of(outputs_.begin(), outputs_.end(),
                                  [](double value) { return std::isfinite(value); });
  return finite ? std::span<const double>(outputs_) : TargetMeans();
}

double ProvisionalModel::Variance(std::span<const double> inputs) {
  if (!learner_.has_value() || outputs_.size() != 1) return std::nan("");
  return learner_->PredictWithVariance(inputs).variance;
}

void ProvisionalModel::Learn(std::span<const double> inputs, std::span<const double> labels) {
  EncodeTargets<double>(task_, labels, encoded_);
  inputs_.insert(inputs_.end(), inputs.begin(), inputs.end());
  targets_.insert(targets_.end(), encoded_.begin(), encoded_.end());
  ++lines_;
  if (lines_ == next_fit_) {
    next_fit_ *= 2;
    Refit();
  } else if (learner_.has_value()) {
    for (std::size_t k = 0; k < encoded_.size(); ++k) encoded_[k] -= offsets_[k];
    learner_->LearnOutputs(inputs, encoded_, outputs_);
  }
}

void ProvisionalModel::Refit() {
  LearnerConfig config = config_;
  const auto dimension = static_cast<std::size_t>(task_.num_inputs());
  if (options_.standardize > 0) {
    InputStatistics statistics(task_.num_inputs());
    for (int line = 0; line < lines_; ++line) {
      statistics.Add(std::span<const double>(inputs_).subspan(line * dimension, dimension));
    }
    SetStandardization(task_, statistics, config.features);
  }
  // The targets as the new model learns them (the old one keeps its own
  // offsets if the new one cannot be made).
  std::vector<double> offsets = offsets_;
  if (options_.standardize > 0 && !task_.is_classifier()) {
    const std::span<const double> means = TargetMeans();
    offsets.assign(means.begin(), means.end());
  }
  std::vector<double> targets = targets_;
  for (std::size_t i = 0; i < targets.size(); ++i) targets[i] -= offsets[i % offsets.size()];
  if (lines_ <= kMaxTunedLines &&
      (GammaFromWarmUp(options_) || RidgeFromWarmUp(options_) || KernelFromWarmUp(options_))) {
    TuningRequest request = TuningRequestFor(options_, task_);
    request.max_tuning_features = kMaxTuningFeatures;
    absl::StatusOr<TuningResult> tuned = TuneOnWarmUp(config, request, inputs_, targets);
    if (tuned.ok()) {
      config.features.kernel = tuned->kernel;
      config.features.gamma = tuned->gamma;
      config.ridge = tuned->ridge;
      return Start(std::move(config), targets, std::move(offsets));
    }
  }
  if (GammaFromWarmUp(options_)) {
    absl::StatusOr<double> gamma = MedianHeuristicGamma(
        inputs_, task_.num_inputs(), config.features.input_offset, config.features.input_scale);
    if (gamma.ok()) config.features.gamma = *gamma;
  }
  Start(std::move(config), targets, std::move(offsets));
}

void ProvisionalModel::Start(LearnerConfig config, std::span<const double> targets,
                             std::vector<double> offsets) {
  absl::StatusOr<Learner> learner = Learner::Create(std::move(config));
  if (!learner.ok()) return;  // answers stay the targets' mean, or the last fit's
  const auto dimension = static_cast<std::size_t>(task_.num_inputs());
  learner_ = *std::move(learner);
  offsets_ = std::move(offsets);
  std::vector<double> priors(encoded_.size());
  for (int line = 0; line < lines_; ++line) {
    learner_->LearnOutputs(std::span<const double>(inputs_).subspan(line * dimension, dimension),
                           targets.subspan(line * encoded_.size(), encoded_.size()),
                           priors);
  }
}

}  // namespace rffstream
