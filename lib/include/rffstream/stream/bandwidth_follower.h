// File: rffstream/stream/bandwidth_follower.h
//
// --gamma=auto past the warm-up window. The window's leave-one-out choice
// picks the kernel width that suits a model of its own 256 lines; a model
// of thousands of samples is often better served by a wider kernel (a
// smoother fit that more data can pin down). Choosing the width again needs
// the data, so this keeps the lines the model learned since it started (or
// since a drift restart) until its last choice.
//
// At the ridge follower's first two choices (4 and 16 times the window's
// lines), candidate widths γ' from γ · {1/8, 1/4, 1/2, 1, 2} are scored by
// generalized cross-validation (rffstream/ridge_by_gcv.h; the least score
// over ridges from 1e-8 to 10) of the model's own map at that width (the
// same draws, scaled) on those lines. The scores come from the lines
// themselves, not from the model's state, so they reach below the ridge
// follower's least ridge (a wider kernel often wants a smaller one). A
// choice needs at least twice as many lines as features: with fewer the
// fits nearly interpolate, and the scores are rounding noise.
//
// When the best width beats the current one's score by more than
// kMinimumGain, the model is rebuilt exactly with it and its score's ridge
// λ: its information form λI + Σ zzᵀ and Σ z y from the kept lines mapped
// anew (its counts and noise estimate carried over), as if it had learned
// every line so. A drift restart goes back to the window's width (as to
// its ridge), and the choices come again; the inputs may have moved with
// the stream, so those choices also score the map standardized anew on the
// lines kept since the restart (stream/standardization_on_lines.h).
//
// For regression with the squared loss and β = 1 (where the ridge
// follows), kernels of one bandwidth (no ARD lengthscales, no leverage
// selection), models of at most kMostFeatures features (each candidate
// costs the Gram matrix of the kept lines, O(n D²), and its reduction to
// tridiagonal form, O(D³)), and inputs narrow enough that the kept lines
// stay under kMostInputValues. The state goes into checkpoints
// (BandwidthFollowState), so a loaded model goes on choosing as it would
// have. Under mpirun each rank keeps the lines it learned and the choices
// come at the merges, scored on the sums over every rank's lines (Ranks).
#ifndef RFFSTREAM_STREAM_BANDWIDTH_FOLLOWER_H_
#define RFFSTREAM_STREAM_BANDWIDTH_FOLLOWER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "rffstream/checkpoint.h"
#include "rffstream/learner.h"

namespace rffstream {

template <class Real>
class BandwidthFollower {
 public:
  // Choices after a start or restart, at the ridge follower's first ones.
  static constexpr int kChoices = 2;
  // The candidates are the current width γ times kWiderStep^k (a wider
  // kernel, which a growing model can often afford) down to kMostWidening,
  // or else times kNarrowerStep^k up to kMostNarrowing, as long as each
  // step improves the score.
  static constexpr double kWiderStep = 0.5;
  static constexpr double kMostWidening = 0.125;
  static constexpr double kNarrowerStep = 2.0;
  static constexpr double kMostNarrowing = 2.0;
  // The least relative gain in the GCV score that changes the width.
  static constexpr double kMinimumGain = 0.01;
  // Input values kept at most (32 MiB): wider streams keep their width.
  static constexpr std::int64_t kMostInputValues = std::int64_t{1} << 22;
  // Under mpirun a rank keeps at most this many times the lines of the last
  // choice (and kMostInputValues): past that, the choices stop.
  static constexpr std::int64_t kLateChoiceLines = 4;
  // The ridges each width is scored with: 1e-8 to 10, a factor √10 apart.
  static std::vector<double> ScoringRidges();

  // Whether a model of `config` can follow: one bandwidth (gamma), drawn
  // frequencies that do not depend on data, at most kMostFeatures features.
  // (Scoring a wider model's candidates with maps of fewer features was
  // tried: on a Friedman stream of 16 inputs at D = 1024, the 512-feature
  // scores chose a kernel 8 times wider, whose progressive MSE was 15 %
  // above the window's width's: fewer features favour wider kernels.)
  static bool CanFollow(const LearnerConfig& config);
  static constexpr int kMostFeatures = 512;


  // A model of `config` that starts now, or a loaded one's `state`.
  explicit BandwidthFollower(const LearnerConfig& config, BandwidthFollowState state = Fresh());

  // The warm-up window ended after `samples` (the ridge follower's choices
  // come at multiples of it) with the width `gamma`: streams too wide to
  // keep stop following.
  void WindowEnded(std::int64_t samples, double gamma);
  // A sample the model learned (its inputs, which the model maps in its
  // precision, and its targets as it learned them); kept while choices are
  // left.
  void Learned(std::span<const double> inputs, std::span<const Real> targets);
  // The model started over and learned these rows again (drift restart,
  // at the stream's `line`): they are kept, and the choices come again.
  // Returns the model rebuilt with the window's width, when it has grown
  // another (as the ridge goes back to the window's: the restarted model
  // holds a few lines, and the window chose both for such a model).
  std::optional<BasicLearner<Real>> Restarted(std::int64_t line, const BasicLearner<Real>& learner,
                                              std::span<const double> inputs,
                                              std::span<const Real> targets);
  // Data-parallel ranks, each keeping the lines it learned: `sum` adds
  // numbers over every rank, in place, and `agree` gives every rank rank 0's
  // value, so that the scores are those of every rank's lines and every
  // rank walks the same candidates (the same collectives). Both are called
  // by every rank at once.
  struct Ranks {
    std::function<void(std::span<double>)> sum;
    std::function<double(double)> agree;
  };

  // At a choice of the ridge follower (`line`: the stream's line, for the
  // record): the model rebuilt with a better width and the ridge GCV chose
  // for it, or nothing to change. With `ranks`, on every rank's lines (the
  // rebuilt model holds them all). With `restandardize` (after a drift
  // restart) the inputs standardized anew on the kept lines are candidates
  // too, at widths walked from the current one.
  std::optional<BasicLearner<Real>> MaybeRechoose(std::int64_t line,
                                                  const BasicLearner<Real>& learner,
                                                  const Ranks* ranks = nullptr,
                                                  bool restandardize = false);

  // Whether learned samples are kept (choices are left, in time).
  bool keeps_lines() const { return state_.choices_left > 0 && !overflowed_; }
  const std::vector<BandwidthFollowState::Change>& changes() const { return state_.changes; }
  // The standardizations chosen anew: from 1 to the largest factor by
  // which an input's scale moved.
  const std::vector<SettingChange>& standardizations() const { return state_.standardizations; }
  const BandwidthFollowState& state() const { return state_; }

 private:
  static BandwidthFollowState Fresh() {
    BandwidthFollowState state;
    state.choices_left = kChoices;
    return state;
  }
  std::int64_t rows() const {
    return static_cast<std::int64_t>(state_.inputs.size()) / num_inputs_;
  }
  struct Scored {
    double score = 0;  // GCV's least over the ridges (+infinity: not scored)
    double ridge = 0;  // where
  };
  // `learner`'s map with `features` (a width, a standardization) scored on
  // the kept lines (on its threads).
  Scored Score(const BasicLearner<Real>& learner, FeatureMapConfig features,
               const Ranks* ranks) const;
  struct Walked {
    double gamma = 0;  // the best width walked to
    Scored best;       // its score
    Scored start;      // the score of the width walked from
  };
  // From `features`' width, wider (or else narrower) while the score
  // improves.
  Walked Walk(const BasicLearner<Real>& learner, const FeatureMapConfig& features,
              const Ranks* ranks) const;
  // A choice made: the kept lines are dropped when it was the last.
  std::optional<BasicLearner<Real>> NoneLeftAfter(std::optional<BasicLearner<Real>> rebuilt);
  // `learner` with `features` (its width, standardization) and `ridge`, its
  // state set from the kept lines.
  std::optional<BasicLearner<Real>> Rebuild(const BasicLearner<Real>& learner,
                                            const FeatureMapConfig& features, double ridge,
                                            const Ranks* ranks) const;

  int num_inputs_;
  std::vector<double> means_;  // a missing input is kept as its mean (FeatureMap::Map)
  bool fits_ = true;           // the kept lines fit under kMostInputValues
  std::int64_t most_rows_ = kMostInputValues;
  bool overflowed_ = false;  // past most_rows_: lines no longer kept
  BandwidthFollowState state_;
};

extern template class BandwidthFollower<float>;
extern template class BandwidthFollower<double>;

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_BANDWIDTH_FOLLOWER_H_
