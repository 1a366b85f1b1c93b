#include "internal/merge_checks.h"

#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace rffstream::internal {
namespace {

template <class Value>
std::optional<std::string> Differs(const char* field, const Value& a, const Value& b) {
  if (a == b) return std::nullopt;
  if constexpr (std::is_same_v<Value, std::vector<double>>) {
    return absl::StrCat(field, " [", absl::StrJoin(a, ","), "] against [", absl::StrJoin(b, ","),
                        "]");
  } else {
    return absl::StrCat(field, " ", a, " against ", b);
  }
}

// The first setting in which two models differ, or nullopt; the ridge only
// when `ridge_counts`.
std::optional<std::string> ConfigDifference(const LearnerConfig& a, const LearnerConfig& b,
                                            bool ridge_counts) {
  const FeatureMapConfig& x = a.features;
  const FeatureMapConfig& y = b.features;
  for (std::optional<std::string> difference : {
           Differs("inputs", x.input_dimension, y.input_dimension),
           Differs("features", x.num_features, y.num_features),
           Differs("map", std::string(FeatureMapKindName(x.map)), std::string(FeatureMapKindName(y.map))),
           Differs("kernel", std::string(KernelKindName(x.kernel)), std::string(KernelKindName(y.kernel))),
           Differs("sampler", std::string(FrequencySamplerName(x.sampler)),
                   std::string(FrequencySamplerName(y.sampler))),
           Differs("gamma", x.gamma, y.gamma),
           Differs("seed", x.seed, y.seed),
           Differs("lengthscales", x.lengthscales, y.lengthscales),
           Differs("standardization offsets", x.input_offset, y.input_offset),
           Differs("standardization scales", x.input_scale, y.input_scale),
           ridge_counts ? Differs("ridge", a.ridge, b.ridge) : std::nullopt,
           Differs("forgetting", a.forgetting, b.forgetting),
           Differs("intercept", a.intercept, b.intercept),
           Differs("outputs", a.num_outputs, b.num_outputs),
           Differs("loss", std::string(LossName(a.loss)), std::string(LossName(b.loss))),
       }) {
    if (difference) return difference;
  }
  if (x.selection.selected != y.selection.selected || x.selection.weights != y.selection.weights) {
    return "the leverage features selected";
  }
  return std::nullopt;
}

}  // namespace

// Shards of a base may have chosen their ridge again (--ridge=auto): their
// sums of the data hold no ridge, and the merge takes the base's.
template <class Real>
absl::Status CheckMergeable(const NamedCheckpoint<Real>& shard, const NamedCheckpoint<Real>& reference,
                            bool from_base) {
  const BasicLearner<Real>& learner = shard.checkpoint->learner;
  const BasicLearner<Real>& other = reference.checkpoint->learner;
  if (std::optional<std::string> difference =
          ConfigDifference(learner.config(), other.config(), !from_base)) {
    // Shards learned from scratch chose these on their own windows.
    const Task& task = shard.checkpoint->record.task;
    const bool chosen_apart =
        !from_base &&
        ((absl::StartsWith(*difference, "standardization") && task.standardize_lines > 0) ||
         (absl::StartsWith(*difference, "gamma") && task.gamma_from_warm_up) ||
         (absl::StartsWith(*difference, "ridge") && task.ridge_from_warm_up));
    return absl::InvalidArgumentError(absl::StrCat(
        shard.name, " and ", reference.name, " are different models: ", *difference,
        chosen_apart ? " (each chose it on its own first lines: learn the shards from one base, "
                       "--load=BASE and merge --base=BASE, or give --standardize=0 --gamma=G "
                       "--ridge=R)"
                     : ""));
  }
  if (learner.config().forgetting != 1.0) {
    return absl::InvalidArgumentError(absl::StrCat(
        shard.name, ": a model with forgetting (beta ", learner.config().forgetting,
        " < 1) weighs its samples by their age in its own stream, so no merge is exact"));
  }
  // The same configuration draws the same frequencies; a file from another
  // build or platform must too.
  const BasicFeatureMap<Real>& map = learner.feature_map();
  const BasicFeatureMap<Real>& other_map = other.feature_map();
  if (!std::equal(map.projection().begin(), map.projection().end(), other_map.projection().begin()) ||
      !std::equal(map.offsets().begin(), map.offsets().end(), other_map.offsets().begin()) ||
      !std::equal(map.centres().begin(), map.centres().end(), other_map.centres().begin()) ||
      map.scale() != other_map.scale()) {
    return absl::InvalidArgumentError(absl::StrCat(shard.name, " and ", reference.name,
                                                   " have the same settings but different random "
                                                   "features (from another build, or a checkpoint "
                                                   "format before 13?)"));
  }
  if (!(shard.checkpoint->record.task == reference.checkpoint->record.task)) {
    return absl::InvalidArgumentError(absl::StrCat(
        shard.name, " and ", reference.name,
        " read their input differently (columns, header, classes or warm-up)"));
  }
  return absl::OkStatus();
}

// A shard that restarted on drift, or chose its kernel's width again (new
// random features), after the base no longer holds the base's state under
// its own.
template <class Real>
absl::Status CheckStartedFromBase(const NamedCheckpoint<Real>& shard,
                                  const NamedCheckpoint<Real>* base) {
  if (base == nullptr) return absl::OkStatus();
  const CheckpointRecord& part = shard.checkpoint->record;
  const CheckpointRecord& start = base->checkpoint->record;
  if (part.drift_restarts > start.drift_restarts) {
    return absl::FailedPreconditionError(absl::StrCat(
        shard.name, " forgot to its prior on drift after the base ", base->name,
        " (--forget=auto), so it no longer holds the base: merge it without --base, or learn "
        "the shards with --forget=1"));
  }
  if (part.bandwidth_follow.changes.size() > start.bandwidth_follow.changes.size()) {
    return absl::FailedPreconditionError(absl::StrCat(
        shard.name, " chose its kernel's width again after the base ", base->name,
        " (--gamma=auto, at line ", part.bandwidth_follow.changes.back().line,
        "), so its random features are not the base's: learn the shards with --gamma=",
        absl::StrFormat("%.17g", base->checkpoint->learner.config().features.gamma),
        " (the base's, which then stays)"));
  }
  return absl::OkStatus();
}

template absl::Status CheckMergeable(const NamedCheckpoint<float>&, const NamedCheckpoint<float>&, bool);
template absl::Status CheckMergeable(const NamedCheckpoint<double>&, const NamedCheckpoint<double>&,
                                     bool);
template absl::Status CheckStartedFromBase(const NamedCheckpoint<float>&, const NamedCheckpoint<float>*);
template absl::Status CheckStartedFromBase(const NamedCheckpoint<double>&,
                                           const NamedCheckpoint<double>*);

}  // namespace rffstream::internal
