// File: apps/commands/information_delta_sync.h
//
// One rank's side of the merges of data-parallel learning: from the common
// base on, the model stage adds every learned sample to a delta; a merge sums
// every rank's delta (and noise sums and sample counts) into the running
// total A, b, and the learner continues from that total.
//
// With forgetting (β < 1) the merges run on one global clock: a line's clock
// is its place among the input's data lines (its line number less the
// header), whichever rank reads it, and a line that is not learned (blank,
// rejected) still takes its place. A merge happens at clock T, the latest
// any rank has reached: the total decays by β^(T - T_previous) and each
// rank's samples come in weighted β^(T - t), with the RLS's refresh terms, so
// after the last merge A is exactly A_T = β^T λI + Σ_t β^(T - t)
// (z_t z_tᵀ + α e_((t-1) mod D) e_((t-1) mod D)ᵀ): the model one process
// learns from the same lines when every line is learned. The base holds the
// first samples (the window's, or a loaded model's), clocks 1 to its sample
// count; the window must then hold data lines only for this to be exact. The
// noise estimate's sums decay alike: each rank sends what its samples since
// the last merge added.
//
// Drift (--forget=auto, so β = 1, with the lines of one stream dealt to the
// ranks): each rank watches its own a-priori errors and, on a change,
// forgets to its prior and learns its remembered lines again, alone
// (model_stage.h). The next merge then restarts the shared model: every
// other rank does the same, and the merge starts from the prior instead of
// the last total. So after it the model is the prior plus, from each rank,
// its lines since its own restart (or its last remembered lines, for a rank
// that saw no change itself).
//
// With --rank_model=merged the ranks only gather between merges: the
// learner changes at the merges alone, which set the noise estimate from
// the targets' squares (gathered_noise.h).
//
// --ridge=auto (rffstream/stream/ridge_follower.h): each rank's follower
// counts its own samples and targets' squares; a merge sums them with the
// rest, and when a choice has fallen due for the merged sample count, GCV
// chooses on the merged sums (rank 0's choice, for every rank), and the
// total takes the new ridge. So the ridge follows as in one
// process, at the merges instead of at 4, 16, 64, ... times the window.
#ifndef RFFSTREAM_APPS_INFORMATION_DELTA_SYNC_H_
#define RFFSTREAM_APPS_INFORMATION_DELTA_SYNC_H_

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "commands/gathered_noise.h"
#include "commands/mpi_world.h"
#include "rffstream/information_delta.h"
#include "rffstream/ridge_by_gcv.h"
#include "rffstream/rls.h"
#include "rffstream/stream/stream_pipeline.h"
#include "rffstream/target_range.h"

namespace rffstream::app {

template <class Real>
class InformationDeltaSync {
 public:
  // The pipeline's model is the base every rank holds; tracking starts now.
  // A sample's clock is its line number less `clock_offset`.
  // `dealt`: the ranks share the lines of one stream (else each reads its own).
  // `gathers_only`: between merges the rank predicts with the last merged
  // model and only gathers its samples (ModelStage::TrackInformation);
  // REQUIRES: then β = 1.
  InformationDeltaSync(StreamPipeline<Real>& pipeline, std::int64_t clock_offset, bool dealt,
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
  InformationDeltaSync(const InformationDeltaSync&) = delete;
  InformationDeltaSync& operator=(const InformationDeltaSync&) = delete;

  // Whether the base could be put in information form.
  const absl::Status& status() const { return status_; }
  // The samples this rank learned since the last merge (a restart's lines
  // learned again are not among them).
  std::int64_t SamplesSinceMerge(const StreamPipeline<Real>& pipeline) const {
    return pipeline.learner()->samples_learned() - samples_ +
           (gathered_ ? gathered_->SinceMerge(pipeline.model()) : 0);
  }

  // Sums every rank's delta into the total and continues from it; every
  // rank calls it the same number of times. `active`: this rank still has
  // lines. Returns whether any rank still has.
  absl::StatusOr<bool> Merge(StreamPipeline<Real>& pipeline, bool active, const MpiWorld& world) {
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
    const std::span<double> sums = delta_.Sums(clock);  // ΔA, Δb, count at that clock
    message_.assign(sums.begin(), sums.end());
    // The samples learned since the merge (a restart's lines learned again
    // are in the delta, not among them).
    const std::int64_t learned = SamplesSinceMerge(pipeline);
    message_[sums.size() - 1] = static_cast<double>(learned);
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
    world.Sum(message_);
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
    for (std::size_t i = 0; i < information; ++i) total_.information[i] += message_[i];
    for (std::size_t i = 0; i < targets; ++i) total_.target_sums[i] += message_[information + i];
    samples_ += static_cast<std::int64_t>(message_[information + targets]);
    std::size_t at = information + targets + 1;
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

  std::int64_t merges() const { return merges_; }
  // The merges that restarted the shared model on a change.
  std::int64_t restarts() const { return restarts_; }
  std::size_t message_numbers() const { return message_.size(); }
  double seconds() const { return seconds_; }

 private:
  // The targets every rank learned: each rank's answers are clipped to them
  // from here on, and the saved model keeps them.
  static void IncludeEveryRanksTargets(ModelStage<Real>& model, const MpiWorld& world) {
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

  // The choices that fell due at this merge, as in one process: the
  // bandwidth's on every rank's kept lines (the model rebuilt with it, the
  // total recovered from it), else the ridge's. Every rank calls it at the
  // same merges, and every decision is rank 0's (each rank scores the same
  // sums, but a near tie must not split them).
  absl::Status FollowSettings(ModelStage<Real>& model, RidgeFollower<Real>& follower,
                              const MpiWorld& world) {
    const std::int64_t line = clock_ + clock_offset_;
    const typename BandwidthFollower<Real>::Ranks ranks{
        [&world](std::span<double> numbers) { world.Sum(numbers); },
        [&world](double value) {
          return world.Max(world.rank() == 0 ? value : -std::numeric_limits<double>::infinity());
        }};
    if (model.FollowBandwidthAtMerge(line, ranks)) {
      absl::StatusOr<typename BasicRls<Real>::InformationForm> total =
          model.learner()->rls().ToInformationForm();
      if (!total.ok()) return total.status();
      total_ = *std::move(total);
      return gathered_ ? gathered_->Recount(total_) : absl::OkStatus();
    }
    BasicLearner<Real>& learner = *model.mutable_learner();
    const double ridge = learner.config().ridge;
    const auto dimension = static_cast<std::size_t>(learner.row_length());
    std::vector<double> gram = total_.information;
    for (std::size_t i = 0; i < dimension; ++i) gram[i * dimension + i] -= ridge;
    // The base's part of the total came from the model's own state, rounded
    // as its numbers are: the candidates it can judge (ridge_follower.h).
    const double best = follower.BestRidge(gram, total_.target_sums, ridge,
                                           RidgeFollower<Real>::ReliableCandidates(ridge, dimension));
    const double chosen = ranks.agree(best);
    typename BasicRls<Real>::InformationForm changed = total_;
    for (std::size_t i = 0; i < dimension; ++i) {
      changed.information[i * dimension + i] += chosen - ridge;
    }
    // As in one process, the noise sums stay as they were (not the new
    // ridge's cost), and a ridge the model cannot take leaves it as it was.
    changed.target_squares.clear();
    if (chosen == ridge || !learner.SetInformationForm(changed, samples_, chosen).ok()) {
      follower.Chose(line, ridge, ridge);
      return absl::OkStatus();
    }
    total_ = std::move(changed);
    follower.Chose(line, ridge, chosen);
    return gathered_ ? gathered_->Recount(total_) : absl::OkStatus();
  }

  // When any rank restarted on a change since the last merge, every other
  // rank restarts too and the total goes back to the prior (true). Every
  // rank calls it at every merge (one collective).
  absl::StatusOr<bool> RestartIfAnyRankDid(ModelStage<Real>& model, const MpiWorld& world) {
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

  absl::Status status_;
  const double forgetting_;
  std::optional<GatheredNoise<Real>> gathered_;  // with gathers_only
  BasicInformationDelta<Real> delta_;
  typename BasicRls<Real>::InformationForm total_;
  std::int64_t samples_ = 0;
  std::int64_t clock_ = 0;  // of the last merge (or of the base)
  std::int64_t clock_offset_ = 0;  // a line's number less its clock
  // The ridge follower's merged sums at the last merge (or of the base).
  std::int64_t follower_samples_ = 0;
  std::vector<double> follower_squares_;
  std::vector<double> message_;
  std::int64_t merges_ = 0;
  std::int64_t restarts_ = 0;
  std::size_t drifts_at_merge_ = 0;  // this rank's changes seen by the last merge
  double seconds_ = 0;
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_INFORMATION_DELTA_SYNC_H_
