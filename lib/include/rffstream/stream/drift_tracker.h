// File: rffstream/stream/drift_tracker.h
//
// --forget=auto: the model learns with β = 1 (every sample weighs the same:
// exact ridge on a stationary stream) and watches its a-priori errors
// (rffstream/change_detector.h: a fast detector and a slow one). When they
// rise to a new level and stay there, what it learned may no longer hold.
// The alarm is then put to the test on the last kRelearnedLines lines,
// which it remembers with their a-priori errors:
// - where the errors rose is estimated (the split of their logarithms whose
//   means differ most, when it stands out from the noise; else all lines
//   are taken as the new regime's);
// - a model learned anew from the prior on the lines since then is scored
//   on them, a priori, against the errors the model made on them.
// Unless the new model does more than kDeclineRatio times worse, the model
// forgets to its prior and learns those lines again, tracking the change at
// once instead of weighing it against everything before (and without the
// lines of the old regime). Otherwise the alarm is declined: bursts of
// error in a stream that did not change (a chaotic series entering a rare
// region) would cost far more to relearn than they cost to bear. Memory:
// kRelearnedLines inputs, targets and errors; a copy of the model while an
// alarm is tested.
#ifndef RFFSTREAM_STREAM_DRIFT_TRACKER_H_
#define RFFSTREAM_STREAM_DRIFT_TRACKER_H_

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "rffstream/change_detector.h"
#include "rffstream/checkpoint.h"
#include "rffstream/learner.h"

namespace rffstream {

template <class Real>
class DriftTracker {
 public:
  static constexpr int kRelearnedLines = 64;
  // An alarm is declined when a model learned anew does this much worse, a
  // priori, on the lines since the change than the model did.
  static constexpr double kDeclineRatio = 4;
  // Fewer lines with known errors than this: the alarm is taken untested
  // (after a checkpoint was loaded, whose lines carry no errors).
  static constexpr int kMinTestedLines = 8;

  struct Drift {
    std::int64_t line = 0;  // where it was detected
    double size = 0;        // the error level then, over the level before
  };

  DriftTracker(int input_dimension, int num_outputs);

  // A labelled line about to be learned, in stream order (the warm-up
  // window's too, whose errors are not the model's and are not observed).
  // False when it is not kept: numbers the model's precision cannot hold.
  bool Remember(std::int64_t line, std::span<const double> inputs, std::span<const Real> targets);
  // Its a-priori predictions once learned; true when the detectors raised
  // an alarm, which Restart() then tests.
  bool Observe(std::int64_t line, std::span<const Real> targets, std::span<const Real> priors);
  // After an alarm: true when the model forgot everything but the lines of
  // the new regime, which it learned again (with `ridge` as its prior's λ
  // when > 0: --ridge=auto's window choice), and the change is listed in
  // drifts(); false when the alarm was declined (the model unchanged).
  bool Restart(BasicLearner<Real>& learner, double ridge = 0);
  // Another process saw the stream change (data-parallel ranks): the
  // detectors start over from the new regime, as after a change of its own
  // (not listed in drifts()), and the model restarts as in Restart().
  void RestartOnChangeSeenElsewhere(BasicLearner<Real>& learner, double ridge = 0);

  const std::vector<Drift>& drifts() const { return drifts_; }
  // Alarms declined: a model learned anew would have done far worse.
  std::int64_t declined_alarms() const { return declined_alarms_; }
  // The inputs and targets the last Restart() learned again, in order.
  std::span<const double> relearned_inputs() const { return ordered_inputs_; }
  std::span<const Real> relearned_targets() const { return ordered_targets_; }
  // The lines the model has learned since its last restart (its memory).
  std::int64_t lines_since_restart() const { return lines_since_restart_; }

  // Its state, for a checkpoint (the changes it listed are not kept: the
  // checkpoint counts them), and back: a state that does not fit this
  // tracker (other detectors, more lines than it remembers) is refused.
  // `unlearned`: the newest lines remembered that the model has not learned
  // yet (a block still filling), left out as the model does not hold them.
  DriftTrackingState State(int unlearned = 0) const;
  [[nodiscard]] bool Restore(const DriftTrackingState& state);

 private:
  // A fast one for abrupt changes, a slow one for gradual drift, whose
  // errors rise too slowly for the fast one's reference to fall behind.
  ChangeDetector fast_;
  ChangeDetector slow_;
  const std::size_t input_dimension_;
  const std::size_t num_outputs_;
  // The last kRelearnedLines lines, a ring: `next_` is the oldest once full;
  // each with its line number and its a-priori squared error (-1 and NaN
  // while unknown).
  std::vector<double> inputs_;
  std::vector<Real> targets_;
  std::vector<std::int64_t> lines_;
  std::vector<double> errors_;
  int remembered_ = 0;
  int next_ = 0;
  std::vector<double> ordered_inputs_;  // the ring in order, for a restart
  std::vector<Real> ordered_targets_;
  // Both detectors start over, from the regime the stream is in now.
  void Rearm();
  // The ring's lines from the oldest on (their errors too, when asked).
  void OrderRing(std::vector<double>& inputs_in_order, std::vector<Real>& targets_in_order,
                 std::vector<double>* errors_in_order = nullptr) const;
  // The newest `lines` of the ring, oldest first.
  void NewestLines(int lines, std::vector<double>& inputs, std::vector<Real>& targets) const;
  // The model forgets all but the newest `lines` of the ring, which it
  // learns again.
  void Relearn(BasicLearner<Real>& learner, int lines, double ridge);
  std::vector<Drift> drifts_;
  std::optional<Drift> alarm_;  // raised by Observe(), tested by Restart()
  std::int64_t observed_since_alarm_ = 0;
  std::int64_t declined_alarms_ = 0;
  std::int64_t lines_since_restart_ = 0;
};

extern template class DriftTracker<float>;
extern template class DriftTracker<double>;

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_DRIFT_TRACKER_H_
