// A classifier's class first seen in the stream, added as if it had been
// declared from the start: the learner's output (BasicLearner::AddClass),
// then a checkpoint's task and confusion counts (AddClass in checkpoint.h).
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "rffstream/checkpoint.h"
#include "rffstream/learner.h"

namespace rffstream {
namespace {

// The weights of an output whose target was -1 for every sample learned by
// `rls`, a one-vs-rest engine of K >= 2 outputs (see AddClass).
template <class Real>
std::vector<Real> AlwaysNegativeWeights(const BasicRls<Real>& rls, double ridge, bool intercept) {
  const int dimension = rls.dimension();
  const int outputs = rls.num_outputs();
  std::vector<double> weights(static_cast<std::size_t>(dimension), 0.0);
  if (outputs >= 3) {
    // b_k = Σ z y_k and Σ_k y_k = 2 - K for every sample: Σ_k w_k = (2 - K) P Σ z.
    for (int output = 0; output < outputs; ++output) {
      const std::span<const Real> w = rls.weights(output);
      for (int i = 0; i < dimension; ++i) weights[i] += static_cast<double>(w[i]) / (outputs - 2);
    }
  } else if (intercept) {
    // The intercept's feature is 1: P⁻¹ e = λ e + Σ z, so -P Σ z = λ P e - e.
    const std::vector<Real> covariance = rls.CovarianceMatrix();
    const int last = dimension - 1;
    for (int i = 0; i < dimension; ++i) {
      weights[i] = ridge * static_cast<double>(covariance[static_cast<std::size_t>(i) * dimension + last]);
    }
    weights[last] -= 1.0;
  }
  return std::vector<Real>(weights.begin(), weights.end());
}

}  // namespace

template <class Real>
absl::Status BasicLearner<Real>::AddClass() {
  if (config_.num_outputs < 2) {
    return absl::FailedPreconditionError(absl::StrCat(
        "a new class needs a classifier's outputs (2 or more), the model has ", config_.num_outputs));
  }
  if (absl::Status sound = CheckSound(); !sound.ok()) return sound;
  if (config_.loss == Loss::kHinge) {
    BasicRls<Real> fresh(row_length(), config_.ridge, config_.forgetting, 1);
    if (pool_) fresh.SetThreadPool(pool_);
    rls_.push_back(std::move(fresh));
  } else {
    BasicRls<Real>& rls = rls_.front();
    const std::span<const Real> noise = rls.noise_sums();
    const Real mean_noise = std::accumulate(noise.begin(), noise.end(), Real{0}) /
                            static_cast<Real>(noise.size());
    rls.AddOutput(AlwaysNegativeWeights(rls, config_.ridge, config_.intercept), mean_noise);
  }
  ++config_.num_outputs;
  return absl::OkStatus();
}

template <class Real>
absl::Status AddClass(BasicCheckpoint<Real>& checkpoint, std::string label) {
  Task& task = checkpoint.record.task;
  if (!task.is_classifier()) {
    return absl::FailedPreconditionError("a new class needs a classifier, the model is a regression");
  }
  const int classes = task.num_classes;
  std::vector<std::string> labels = task.class_labels;
  if (labels.empty()) {
    for (int k = 0; k < classes; ++k) labels.push_back(std::to_string(k));
  }
  if (std::find(labels.begin(), labels.end(), label) != labels.end()) {
    return absl::FailedPreconditionError(absl::StrCat("class '", label, "' is already a class"));
  }
  if (absl::Status added = checkpoint.learner.AddClass(); !added.ok()) return added;
  labels.push_back(std::move(label));
  task.class_labels = std::move(labels);
  // The new output's target was -1 for every sample the ridge follows on.
  RidgeFollowState& follow = checkpoint.record.ridge_follow;
  if (follow.window_samples > 0) follow.target_squares.push_back(static_cast<double>(follow.samples));
  // The lines drift tracking remembers were not of the new class: -1.
  DriftTrackingState& tracking = checkpoint.record.drift_tracking;
  std::vector<double> targets;
  for (std::size_t row = 0; row * classes < tracking.targets.size(); ++row) {
    const auto first = tracking.targets.begin() + static_cast<std::ptrdiff_t>(row * classes);
    targets.insert(targets.end(), first, first + classes);
    targets.push_back(-1);
  }
  tracking.targets = std::move(targets);
  task.num_classes = classes + 1;
  // The confusion counts, row = actual, column = predicted, gain an empty
  // row and column.
  const ClassificationMetrics& old = checkpoint.record.classification;
  std::vector<std::int64_t> counts(static_cast<std::size_t>(classes + 1) * (classes + 1), 0);
  for (int actual = 0; actual < classes; ++actual) {
    for (int predicted = 0; predicted < classes; ++predicted) {
      counts[static_cast<std::size_t>(actual) * (classes + 1) + predicted] =
          old.confusion(actual, predicted);
    }
  }
  checkpoint.record.classification = ClassificationMetrics(classes + 1, std::move(counts));
  return absl::OkStatus();
}

template absl::Status BasicLearner<float>::AddClass();
template absl::Status BasicLearner<double>::AddClass();
template absl::Status AddClass(BasicCheckpoint<float>&, std::string);
template absl::Status AddClass(BasicCheckpoint<double>&, std::string);

}  // namespace rffstream
