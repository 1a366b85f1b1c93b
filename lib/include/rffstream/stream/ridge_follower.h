// File: rffstream/stream/ridge_follower.h
//
// --ridge=auto past the warm-up window. The window's leave-one-out choice
// fits a model of its own length (256 lines); the stream grows into a
// model of many more samples, which needs less regularization. So when the
// model has learned 4, 16, 64, ... times the window's lines (since it
// started, or since a drift restart), the ridge is chosen again by
// generalized cross-validation on everything it learned
// (rffstream/ridge_by_gcv.h: the model's information form and the targets'
// sums of squares, kept here), and set exactly (BasicLearner::SetRidge).
// Each choice costs O(D³) once; the bandwidth (and, after a drift restart,
// the standardization) follows from lines kept for it
// (bandwidth_follower.h).
// For models of the squared
// loss with β = 1 (--forget=auto or 1), in either precision. Under mpirun
// the ranks share one model: its choices come at the merges, on the merged
// sums (SetSums, BestRidge, Chose; apps/commands/information_delta_sync.h).
// The information form
// G = A − λI comes from the model's own state, rounded as the model's
// numbers are: its small eigenvalues are uncertain by about D ε λ (D
// features, ε the precision's, λ the current ridge), so the candidates stop
// well above that (ReliableCandidates). That changes nothing in float64;
// a float32 model that starts from a large ridge reaches a small one over
// two choices instead of one. The state goes into checkpoints
// (RidgeFollowState), so a loaded model goes on choosing as it would have.
#ifndef RFFSTREAM_STREAM_RIDGE_FOLLOWER_H_
#define RFFSTREAM_STREAM_RIDGE_FOLLOWER_H_

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "rffstream/checkpoint.h"
#include "rffstream/learner.h"
#include "rffstream/ridge_by_gcv.h"

namespace rffstream {

template <class Real>
class RidgeFollower {
 public:
  // The first choice comes at kFirstMultiple times the window's samples,
  // each next one at kGrowth times the last.
  static constexpr int kFirstMultiple = 4;
  static constexpr int kGrowth = 4;
  // The least relative gain in the GCV score that changes the ridge.
  static constexpr double kMinimumGain = 0.01;
  // The smallest candidate is this many times D ε λ (see above): float32's
  // scores there are within a few per cent of float64's (measured on
  // Friedman streams of D = 256 and 1024, λ from 1 to 10⁻⁴; below it, from
  // λ = 1, they fell apart).
  static constexpr double kFloorFactor = 5;

  // RidgeCandidates() from the least one the model's precision can judge.
  static std::vector<double> ReliableCandidates(double ridge, std::size_t dimension);

  explicit RidgeFollower(int num_outputs);
  // A loaded model's. REQUIRES: state.window_samples > 0.
  explicit RidgeFollower(RidgeFollowState state) : state_(std::move(state)) {}

  // The warm-up window ended with the model having learned `samples` with
  // the window's `ridge`: the choices come from then on.
  void WindowEnded(std::int64_t samples, double ridge);
  // The ridge a restarted model starts from: the window's choice (the one
  // chosen for a grown model would be too small for a few lines).
  double window_ridge() const { return state_.window_ridge; }
  // A sample the model learned: its targets as the model learned them.
  void Learned(std::span<const Real> targets);
  // The model started over from the window's ridge and learned these rows
  // of targets again (at the stream's `line`; recorded as a change of 0
  // samples when the ridge was another).
  void Restarted(std::int64_t line, double ridge_before, std::span<const Real> targets);
  // Whether a choice falls due once `pending` more samples are learned (a
  // block ends there, so that the choice is made on the same samples
  // however the blocks are cut).
  bool DueAfter(std::int64_t pending) const {
    return state_.window_samples > 0 && state_.samples + pending >= state_.next_choice;
  }
  // Re-chooses the ridge when the model has grown enough since the last
  // choice (`line`: the stream's line, for the record).
  void MaybeRechoose(std::int64_t line, BasicLearner<Real>& learner);
  // The ridge GCV chooses from `ridge` for a model of G = A − λI (D × D,
  // row-major) and `target_sums` b, with this follower's sample count and
  // targets' squares, among `candidates`; `ridge` itself when no candidate
  // gains more than kMinimumGain or GCV cannot judge.
  double BestRidge(std::span<const double> gram, std::span<const double> target_sums,
                   double ridge, std::span<const double> candidates) const;
  // GCV's choice, when it gains more than kMinimumGain (current_costs: as
  // ChooseRidgeByGcv's).
  std::optional<RidgeChoice> Gaining(std::span<const double> gram,
                                     std::span<const double> target_sums, double ridge,
                                     std::span<const double> candidates,
                                     std::span<const double> current_costs) const;
  // The choice that was due was made elsewhere: with the bandwidth's
  // (bandwidth_follower.h), on the lines themselves, or at a merge of
  // data-parallel ranks. The ridge went from `from` to `to` (recorded when
  // they differ); the next choice comes as after one of this follower's.
  void Chose(std::int64_t line, double from, double to);
  // The samples and targets' squares of a model merged from several
  // learners' (each of which counted its own since the last merge).
  void SetSums(std::int64_t samples, std::span<const double> target_squares);

  // The choices that changed the ridge, in stream order.
  const std::vector<RidgeFollowState::Change>& changes() const { return state_.changes; }
  const RidgeFollowState& state() const { return state_; }

 private:
  RidgeFollowState state_;
};

extern template class RidgeFollower<float>;
extern template class RidgeFollower<double>;

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_RIDGE_FOLLOWER_H_
