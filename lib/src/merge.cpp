#include "rffstream/merge.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "internal/merge_checks.h"

namespace rffstream {
namespace internal {

// The learner's engines and counters, for merging only.
class LearnerMerge {
 public:
  template <class Real>
  static std::vector<BasicRls<Real>>& Engines(BasicLearner<Real>& learner) {
    return learner.rls_;
  }
  template <class Real>
  static const std::vector<BasicRls<Real>>& Engines(const BasicLearner<Real>& learner) {
    return learner.rls_;
  }
  template <class Real>
  static void SetCounts(BasicLearner<Real>& learner, std::int64_t samples, std::int64_t updates) {
    learner.samples_learned_ = samples;
    learner.updates_ = updates;
  }
};

}  // namespace internal

namespace {

// a += sign · b, elementwise.
void Accumulate(std::vector<double>& a, const std::vector<double>& b, double sign) {
  for (std::size_t i = 0; i < a.size(); ++i) a[i] += sign * b[i];
}

// The shards' metrics, each without the start's, added to the start's;
// InvalidArgument for a shard that learned less than its base.
template <class Real>
absl::Status MergeRecords(std::span<const NamedCheckpoint<Real>> shards,
                          const NamedCheckpoint<Real>* base, const BasicCheckpoint<Real>& start,
                          CheckpointRecord& record) {
  const CheckpointRecord& start_record = start.record;
  record.classification = start_record.classification;
  std::vector<std::int64_t> confusion = start_record.classification.confusion_counts();
  // The metrics of targets after the first: only when every file has them
  // (a version 3 file kept the first target's only).
  const std::size_t further_targets =
      start_record.task.is_classifier() ? 0 : static_cast<std::size_t>(start_record.task.num_outputs() - 1);
  bool every_target = base == nullptr || start_record.further_targets.size() == further_targets;
  for (const NamedCheckpoint<Real>& shard : shards) {
    every_target = every_target && shard.checkpoint->record.further_targets.size() == further_targets;
  }
  record.further_targets.assign(every_target ? further_targets : 0, RegressionMetrics());
  if (base != nullptr && every_target) record.further_targets = start_record.further_targets;
  for (const NamedCheckpoint<Real>& shard : shards) {
    const BasicCheckpoint<Real>& part = *shard.checkpoint;
    if (part.learner.samples_learned() < start.learner.samples_learned()) {
      return absl::InvalidArgumentError(absl::StrCat(
          shard.name, " has learned ", part.learner.samples_learned(), " samples, fewer than the ",
          start.learner.samples_learned(), " of the base ", base->name, " it should have started from"));
    }
    RegressionMetrics metrics = part.record.metrics;
    metrics.Remove(start_record.metrics);
    record.metrics.Merge(metrics);
    // After the window, each shard's part apart from the window's (which
    // can be far larger): a base's window counts once, shards learned from
    // scratch bring their own.
    RegressionMetrics after = part.record.warm_up.after;
    after.Remove(start_record.warm_up.after);
    record.warm_up.after.Merge(after);
    if (base == nullptr) {
      record.warm_up.regression.Merge(part.record.warm_up.regression);
      record.warm_up.classified += part.record.warm_up.classified;
      record.warm_up.classified_right += part.record.warm_up.classified_right;
    }
    for (std::size_t target = 0; target < record.further_targets.size(); ++target) {
      RegressionMetrics further = part.record.further_targets[target];
      if (base != nullptr) further.Remove(start_record.further_targets[target]);
      record.further_targets[target].Merge(further);
    }
    const std::vector<std::int64_t>& counts = part.record.classification.confusion_counts();
    const std::vector<std::int64_t>& start_counts = start_record.classification.confusion_counts();
    for (std::size_t cell = 0; cell < confusion.size(); ++cell) {
      confusion[cell] += counts[cell] - start_counts[cell];
    }
  }
  record.classification =
      ClassificationMetrics(start_record.classification.num_classes(), std::move(confusion));
  // The targets every shard learned, and the base's.
  record.target_range = TargetRange(start_record.task.is_classifier() ? 0 : start_record.task.num_outputs());
  record.target_range.Include(start_record.target_range);
  for (const NamedCheckpoint<Real>& shard : shards) {
    record.target_range.Include(shard.checkpoint->record.target_range);
  }
  return absl::OkStatus();
}

// The engines, one by one, in information form: the start's, plus what each
// shard added to it. A = λI + Σ z zᵀ: a shard that chose another ridge λ_s
// added its data and λ_s - λ, which is taken back.
//
// The noise sums add up while every file learned with one ridge; a shard
// that chose another holds its own, so the merged model's are Σ y² - bᵀw
// (their value for β = 1) when every file kept its Σ y² for the ridge
// follower, and otherwise are the sums added, never below 0.
template <class Real>
absl::Status MergeEngines(std::span<const NamedCheckpoint<Real>> shards,
                          const CheckpointRecord& start_record, BasicLearner<Real>& merged) {
  std::vector<BasicRls<Real>>& engines = internal::LearnerMerge::Engines(merged);
  const double ridge = merged.config().ridge;
  std::vector<double> start_squares = start_record.ridge_follow.target_squares;
  if (start_squares.empty() && merged.samples_learned() == 0) {
    start_squares.assign(static_cast<std::size_t>(merged.config().num_outputs), 0.0);
  }
  std::vector<double> target_squares = start_squares;
  for (const NamedCheckpoint<Real>& shard : shards) {
    const std::vector<double>& squares = shard.checkpoint->record.ridge_follow.target_squares;
    if (engines.size() != 1 || squares.size() != start_squares.size()) target_squares.clear();
    if (target_squares.empty()) break;
    Accumulate(target_squares, squares, 1.0);
    Accumulate(target_squares, start_squares, -1.0);
  }
  for (std::size_t e = 0; e < engines.size(); ++e) {
    absl::StatusOr<typename BasicRls<Real>::InformationForm> total = engines[e].ToInformationForm();
    if (!total.ok()) return absl::FailedPreconditionError(absl::StrCat("merge: the start state: ", total.status().message()));
    const typename BasicRls<Real>::InformationForm start_form = *total;
    const auto n = static_cast<std::size_t>(engines[e].dimension());
    for (const NamedCheckpoint<Real>& shard : shards) {
      absl::StatusOr<typename BasicRls<Real>::InformationForm> form =
          internal::LearnerMerge::Engines(shard.checkpoint->learner)[e].ToInformationForm();
      if (!form.ok()) {
        return absl::FailedPreconditionError(absl::StrCat(shard.name, ": ", form.status().message()));
      }
      Accumulate(total->information, form->information, 1.0);
      Accumulate(total->information, start_form.information, -1.0);
      const double other_ridge = shard.checkpoint->learner.config().ridge - ridge;
      for (std::size_t i = 0; i < n && other_ridge != 0; ++i) total->information[i * n + i] -= other_ridge;
      Accumulate(total->target_sums, form->target_sums, 1.0);
      Accumulate(total->target_sums, start_form.target_sums, -1.0);
      Accumulate(total->noise_sums, form->noise_sums, 1.0);
      Accumulate(total->noise_sums, start_form.noise_sums, -1.0);
      total->noise_weight += form->noise_weight - start_form.noise_weight;
    }
    for (double& sum : total->noise_sums) sum = std::max(sum, 0.0);
    total->target_squares = target_squares;
    if (absl::Status set = engines[e].SetInformationForm(*total); !set.ok()) {
      return absl::FailedPreconditionError(absl::StrCat("merge: ", set.message()));
    }
  }
  return absl::OkStatus();
}

}  // namespace

template <class Real>
absl::StatusOr<BasicCheckpoint<Real>> MergeCheckpoints(std::span<const NamedCheckpoint<Real>> shards,
                                                       const NamedCheckpoint<Real>* base) {
  if (shards.empty()) return absl::InvalidArgumentError("merge: no models to merge");
  const NamedCheckpoint<Real>& reference = base != nullptr ? *base : shards.front();
  for (const NamedCheckpoint<Real>& shard : shards) {
    if (absl::Status started = internal::CheckStartedFromBase(shard, base); !started.ok()) {
      return started;
    }
    if (absl::Status mergeable = internal::CheckMergeable(shard, reference, base != nullptr);
        !mergeable.ok()) {
      return mergeable;
    }
  }
  // The start state: the base, or an untrained model of the same features.
  absl::StatusOr<BasicLearner<Real>> untrained = BasicLearner<Real>::Create(reference.checkpoint->learner.config());
  if (!untrained.ok()) return untrained.status();
  const Task& task = reference.checkpoint->record.task;
  const BasicCheckpoint<Real> empty{
      *std::move(untrained),
      CheckpointRecord{task, RegressionMetrics(), ClassificationMetrics(task.num_classes), {}}};
  const BasicCheckpoint<Real>& start = base != nullptr ? *base->checkpoint : empty;
  BasicCheckpoint<Real> merged = start;
  // The shards' own sums would have to be added for the ridge to follow on:
  // a merged model keeps its ridge.
  merged.record.ridge_follow = {};
  if (absl::Status records = MergeRecords(shards, base, start, merged.record); !records.ok()) {
    return records;
  }
  if (absl::Status engines = MergeEngines(shards, start.record, merged.learner); !engines.ok()) {
    return engines;
  }
  std::int64_t samples = start.learner.samples_learned(), updates = start.learner.updates();
  for (const NamedCheckpoint<Real>& shard : shards) {
    samples += shard.checkpoint->learner.samples_learned() - start.learner.samples_learned();
    updates += shard.checkpoint->learner.updates() - start.learner.updates();
  }
  internal::LearnerMerge::SetCounts(merged.learner, samples, updates);
  return merged;
}

template absl::StatusOr<BasicCheckpoint<float>> MergeCheckpoints(std::span<const NamedCheckpoint<float>>,
                                                                 const NamedCheckpoint<float>*);
template absl::StatusOr<BasicCheckpoint<double>> MergeCheckpoints(
    std::span<const NamedCheckpoint<double>>, const NamedCheckpoint<double>*);

}  // namespace rffstream
