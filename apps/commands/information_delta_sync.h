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

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "commands/gathered_noise.h"
#include "commands/mpi_world.h"
#include "rffstream/information_delta.h"
#include "rffstream/rls.h"
#include "rffstream/stream/stream_pipeline.h"

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
                       bool gathers_only);
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
  absl::StatusOr<bool> Merge(StreamPipeline<Real>& pipeline, bool active, const MpiWorld& world);

  std::int64_t merges() const { return merges_; }
  // The merges that restarted the shared model on a change.
  std::int64_t restarts() const { return restarts_; }
  std::size_t message_numbers() const { return message_numbers_; }
  double seconds() const { return seconds_; }

 private:
  // The targets every rank learned: each rank's answers are clipped to them
  // from here on, and the saved model keeps them.
  static void IncludeEveryRanksTargets(ModelStage<Real>& model, const MpiWorld& world);

  // The choices that fell due at this merge, as in one process: the
  // bandwidth's on every rank's kept lines (the model rebuilt with it, the
  // total recovered from it), else the ridge's. Every rank calls it at the
  // same merges, and every decision is rank 0's (each rank scores the same
  // sums, but a near tie must not split them).
  absl::Status FollowSettings(ModelStage<Real>& model, RidgeFollower<Real>& follower,
                              const MpiWorld& world);

  // When any rank restarted on a change since the last merge, every other
  // rank restarts too and the total goes back to the prior (true). Every
  // rank calls it at every merge (one collective).
  absl::StatusOr<bool> RestartIfAnyRankDid(ModelStage<Real>& model, const MpiWorld& world);

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
  std::vector<double> message_;  // a merge's numbers after the delta's sums
  std::size_t message_numbers_ = 0;
  std::int64_t merges_ = 0;
  std::int64_t restarts_ = 0;
  std::size_t drifts_at_merge_ = 0;  // this rank's changes seen by the last merge
  double seconds_ = 0;
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_INFORMATION_DELTA_SYNC_H_
