// One rank's side of the merges (information_delta_sync.h).
#include "commands/information_delta_sync.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "rffstream/ridge_by_gcv.h"
#include "rffstream/target_range.h"

namespace rffstream::app {

template <class Real>
InformationDeltaSync<Real>::InformationDeltaSync(StreamPipeline<Real>& pipeline,
                                                 std::int64_t clock_offset, bool dealt,
                                                 bool gathers_only)
    : forgetting_(pipeline.learner()->config().forgetting),
      delta_(pipeline.learner()->row_length(), pipeline.learner()->config().num_outputs,
             forgetting_,
             pipeline.learner()->row_length() * (1.0 - forgetting_) *
                 pipeline.learner()->config().ridge) {
  const BasicLearner<Real>& learner = *pipeline.learner();
  absl::StatusOr<typename BasicRls<Real>::InformationForm> total = learner.rls().ToInformationForm();
  if (!total.ok()) {
    status_ = total.status();
    return;
  }
  total_ = *std::move(total);
  samples_ = learner.samples_learned();
  clock_ = samples_;  // the base learned the window's lines, one clock tick each
  clock_offset_ = clock_offset;
  pipeline.mutable_model().TrackInformation(&delta_, clock_offset, dealt, gathers_only);
  if (gathers_only) status_ = gathered_.emplace().Recount(total_);
  if (const RidgeFollower<Real>* follower = pipeline.model().ridge_follower()) {
    follower_samples_ = follower->state().samples;
    follower_squares_ = follower->state().target_squares;
  }
  const DriftTracker<Real>* drift = pipeline.model().drift();
  drifts_at_merge_ = drift != nullptr ? drift->drifts().size() : 0;
}

template <class Real>
absl::StatusOr<bool> InformationDeltaSync<Real>::Merge(StreamPipeline<Real>& pipeline, bool active,
                                                      const MpiWorld& world) {
  const auto start = std::chrono::steady_clock::now();
  ModelStage<Real>& model = pipeline.mutable_model();
  BasicLearner<Real>& learner = *model.mutable_learner();
  absl::StatusOr<bool> restarted = RestartIfAnyRankDid(model, world);
  if (!restarted.ok()) return restarted.status();
  // After a restart every rank's follower counts from its restart.
  if (*restarted) {
    follower_samples_ = 0;
    std::fill(follower_squares_.begin(), follower_squares_.end(), 0.0);
  }
  const BasicRls<Real>& rls = learner.rls();
  const std::int64_t clock = static_cast<std::int64_t>(
      world.Max(static_cast<double>(std::max(clock_, delta_.latest_clock()))));
  // ΔA, Δb and the count at that clock, summed where the delta holds them,
  // then the small numbers (noise, the follower's sums, activity).
  const std::span<double> sums = delta_.Sums(clock);
  // The samples learned since the merge (a restart's lines learned again
  // are in the delta, not among them).
  const std::int64_t learned = SamplesSinceMerge(pipeline);
  sums.back() = static_cast<double>(learned);
  message_.clear();
  if (gathered_) {
    gathered_->Append(model, message_);
  } else {
    // What this rank's samples since the last merge added to the noise
    // sums: its RLS decayed the merged sums once per sample.
    const double local_decay = std::pow(forgetting_, static_cast<double>(learned));
    for (std::size_t output = 0; output < total_.noise_sums.size(); ++output) {
      message_.push_back(static_cast<double>(rls.noise_sums()[output]) -
                         local_decay * total_.noise_sums[output]);
    }
    message_.push_back(static_cast<double>(rls.noise_weight()) -
                       local_decay * total_.noise_weight);
  }
  RidgeFollower<Real>* follower = model.mutable_ridge_follower();
  if (follower != nullptr) {
    message_.push_back(static_cast<double>(follower->state().samples - follower_samples_));
    for (std::size_t output = 0; output < follower_squares_.size(); ++output) {
      message_.push_back(follower->state().target_squares[output] - follower_squares_[output]);
    }
  }
  message_.push_back(active ? 1.0 : 0.0);
  world.Sum(sums);
  world.Sum(message_);
  message_numbers_ = sums.size() + message_.size();
  IncludeEveryRanksTargets(model, world);
  const std::size_t information = total_.information.size();
  const std::size_t targets = total_.target_sums.size();
  if (forgetting_ != 1.0) {  // the total decays to the merge's clock
    const double decay = std::pow(forgetting_, static_cast<double>(clock - clock_));
    for (double& value : total_.information) value *= decay;
    for (double& value : total_.target_sums) value *= decay;
    for (double& value : total_.noise_sums) value *= decay;
    total_.noise_weight *= decay;
  }
  clock_ = clock;
  total_.next_refreshed_coordinate =
      static_cast<int>(clock % static_cast<std::int64_t>(learner.row_length()));
  for (std::size_t i = 0; i < information; ++i) total_.information[i] += sums[i];
  for (std::size_t i = 0; i < targets; ++i) total_.target_sums[i] += sums[information + i];
  samples_ += static_cast<std::int64_t>(sums[information + targets]);
  std::size_t at = 0;
  if (gathered_) {
    at += gathered_->Take(message_.data() + at, model, total_);
  } else {
    for (double& noise : total_.noise_sums) noise += message_[at++];
    total_.noise_weight += message_[at++];
  }
  if (follower != nullptr) {
    follower_samples_ += static_cast<std::int64_t>(message_[at++]);
    for (double& squares : follower_squares_) squares += message_[at++];
    follower->SetSums(follower_samples_, follower_squares_);
  }
  const bool any_active = message_[at] > 0;
  delta_.Clear();
  if (absl::Status set = learner.SetInformationForm(total_, samples_); !set.ok()) return set;
  if (gathered_) GatheredNoise<Real>::KeepNoiseSums(learner.rls(), total_);
  if (follower != nullptr && follower->DueAfter(0)) {
    if (absl::Status followed = FollowSettings(model, *follower, world); !followed.ok()) {
      return followed;
    }
  }
  ++merges_;
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return any_active;
}

template <class Real>
void InformationDeltaSync<Real>::IncludeEveryRanksTargets(ModelStage<Real>& model, const MpiWorld& world) {
  const TargetRange& range = model.target_range();
  const std::size_t outputs = range.lows().size();
  std::vector<double> bounds(2 * outputs);  // -lows, then highs: one largest of all
  for (std::size_t output = 0; output < outputs; ++output) {
    bounds[output] = -range.lows()[output];
    bounds[outputs + output] = range.highs()[output];
  }
  world.Max(bounds);
  std::vector<double> lows(outputs), highs(bounds.begin() + outputs, bounds.end());
  for (std::size_t output = 0; output < outputs; ++output) lows[output] = -bounds[output];
  model.IncludeTargetRange(TargetRange::FromBounds(std::move(lows), std::move(highs)));
}

template <class Real>
absl::Status InformationDeltaSync<Real>::FollowSettings(ModelStage<Real>& model,
                                                        RidgeFollower<Real>& follower,
                                                        const MpiWorld& world) {
  const std::int64_t line = clock_ + clock_offset_;
  const typename BandwidthFollower<Real>::Ranks ranks{
      [&world](std::span<double> numbers) { world.Sum(numbers); },
      [&world](double value) {
        return world.Max(world.rank() == 0 ? value : -std::numeric_limits<double>::infinity());
      }};
  if (model.FollowBandwidthAtMerge(line, ranks)) {
    // The rebuilt model's total replaces this one (a failure ends the run).
    std::vector<double>().swap(total_.information);
    absl::StatusOr<typename BasicRls<Real>::InformationForm> total =
        model.learner()->rls().ToInformationForm();
    if (!total.ok()) return total.status();
    total_ = *std::move(total);
    return gathered_ ? gathered_->Recount(total_) : absl::OkStatus();
  }
  BasicLearner<Real>& learner = *model.mutable_learner();
  const double ridge = learner.config().ridge;
  const auto dimension = static_cast<std::size_t>(learner.row_length());
  // The samples' Gram is the total less the ridge, on the total's own
  // diagonal (kept here, to put back bit for bit): no copy of D² numbers.
  std::vector<double> diagonal(dimension);
  double* information = total_.information.data();
  for (std::size_t i = 0; i < dimension; ++i) diagonal[i] = information[i * dimension + i];
  for (std::size_t i = 0; i < dimension; ++i) information[i * dimension + i] -= ridge;
  // The base's part of the total came from the model's own state, rounded
  // as its numbers are: the candidates it can judge (ridge_follower.h).
  const double best = follower.BestRidge(total_.information, total_.target_sums, ridge,
                                         RidgeFollower<Real>::ReliableCandidates(ridge, dimension));
  const double chosen = ranks.agree(best);
  for (std::size_t i = 0; i < dimension; ++i) information[i * dimension + i] = diagonal[i] + (chosen - ridge);
  // As in one process, the noise sums stay as they were (not the new
  // ridge's cost), and a ridge the model cannot take leaves it as it was.
  std::vector<double> squares = std::move(total_.target_squares);
  total_.target_squares.clear();
  if (chosen == ridge || !learner.SetInformationForm(total_, samples_, chosen).ok()) {
    for (std::size_t i = 0; i < dimension; ++i) information[i * dimension + i] = diagonal[i];
    total_.target_squares = std::move(squares);
    follower.Chose(line, ridge, ridge);
    return absl::OkStatus();
  }
  follower.Chose(line, ridge, chosen);
  return gathered_ ? gathered_->Recount(total_) : absl::OkStatus();
}

template <class Real>
absl::StatusOr<bool> InformationDeltaSync<Real>::RestartIfAnyRankDid(ModelStage<Real>& model,
                                                                    const MpiWorld& world) {
  const DriftTracker<Real>* drift = model.drift();
  const std::size_t drifts = drift != nullptr ? drift->drifts().size() : 0;
  const bool restarted_here = drifts > drifts_at_merge_;
  drifts_at_merge_ = drifts;
  if (world.Max(restarted_here ? 1.0 : 0.0) == 0) return false;
  if (!restarted_here) model.RestartWithOtherRanks();
  const LearnerConfig& config = model.learner()->config();
  absl::StatusOr<typename BasicRls<Real>::InformationForm> prior =
      BasicRls<Real>(model.learner()->row_length(), config.ridge, config.forgetting,
                     config.num_outputs)
          .ToInformationForm();
  if (!prior.ok()) return prior.status();
  total_ = *std::move(prior);
  ++restarts_;
  return true;
}

template class InformationDeltaSync<float>;
template class InformationDeltaSync<double>;

}  // namespace rffstream::app
