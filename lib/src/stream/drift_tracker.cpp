#include "rffstream/stream/drift_tracker.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>
#include <utility>

namespace rffstream {
namespace {

// How many of the newest `errors` (a-priori squared errors, oldest first)
// came after they rose: the split whose logarithms' means differ most, in
// units of their standard error for a squared Gaussian error (about 2.2 in
// logarithms), when that difference stands out from what noise gives over
// the splits; else all of them.
int LinesSinceRise(std::span<const double> errors) {
  constexpr double kLogSpread = 2.2;
  constexpr double kStandsOut = 3;
  const int n = static_cast<int>(errors.size());
  std::vector<double> sums(static_cast<std::size_t>(n) + 1, 0.0);
  for (int i = 0; i < n; ++i) {
    sums[i + 1] = sums[i] + std::log(std::max(errors[i], std::numeric_limits<double>::min()));
  }
  int best_before = 0;
  double best = kStandsOut;
  for (int before = 1; before < n; ++before) {
    const int after = n - before;
    const double rise = (sums[n] - sums[before]) / after - sums[before] / before;
    const double score = rise / kLogSpread * std::sqrt(static_cast<double>(before) * after / n);
    if (score > best) {
      best = score;
      best_before = before;
    }
  }
  return n - best_before;
}

}  // namespace

template <class Real>
DriftTracker<Real>::DriftTracker(int input_dimension, int num_outputs)
    : slow_(ChangeDetector::Options{.short_half_life = 500,
                                    .long_half_life = 10000,
                                    .threshold = 1.5,
                                    .min_samples = 1000}),
      input_dimension_(static_cast<std::size_t>(input_dimension)),
      num_outputs_(static_cast<std::size_t>(num_outputs)),
      inputs_(kRelearnedLines * input_dimension_),
      targets_(kRelearnedLines * num_outputs_),
      lines_(kRelearnedLines, -1),
      errors_(kRelearnedLines, std::numeric_limits<double>::quiet_NaN()) {}

template <class Real>
bool DriftTracker<Real>::Remember(std::int64_t line, std::span<const double> inputs,
                                  std::span<const Real> targets) {
  // A line whose numbers the model's precision cannot hold is refused by
  // the model: it is not among the lines learned, nor among those a restart
  // learns again (and a checkpoint holds no infinity).
  const auto too_large = [](double value) {
    return std::abs(value) > static_cast<double>(std::numeric_limits<Real>::max());
  };
  if (std::any_of(inputs.begin(), inputs.end(), too_large) ||
      std::any_of(targets.begin(), targets.end(), [](Real value) { return !std::isfinite(value); })) {
    return false;
  }
  std::copy(inputs.begin(), inputs.end(), inputs_.begin() + next_ * input_dimension_);
  std::copy(targets.begin(), targets.end(), targets_.begin() + next_ * num_outputs_);
  lines_[next_] = line;
  errors_[next_] = std::numeric_limits<double>::quiet_NaN();
  next_ = (next_ + 1) % kRelearnedLines;
  remembered_ = std::min(remembered_ + 1, kRelearnedLines);
  ++lines_since_restart_;
  return true;
}

template <class Real>
bool DriftTracker<Real>::Observe(std::int64_t line, std::span<const Real> targets,
                                 std::span<const Real> priors) {
  double squared_error = 0;
  for (std::size_t output = 0; output < targets.size(); ++output) {
    const double error = static_cast<double>(targets[output]) - static_cast<double>(priors[output]);
    squared_error += error * error;
  }
  // The line's slot, searched from the newest (a block observes its lines
  // after remembering them all).
  for (int back = 1; back <= remembered_; ++back) {
    const int slot = (next_ - back + kRelearnedLines) % kRelearnedLines;
    if (lines_[slot] == line) {
      errors_[slot] = squared_error;
      break;
    }
  }
  ++observed_since_alarm_;
  const bool fast = fast_.Add(squared_error);
  const bool slow = slow_.Add(squared_error);
  if (!fast && !slow) return false;
  alarm_ = Drift{line, fast ? fast_.last_change_ratio() : slow_.last_change_ratio()};
  Rearm();
  return true;
}

template <class Real>
void DriftTracker<Real>::Rearm() {
  fast_ = ChangeDetector(fast_.options());
  slow_ = ChangeDetector(slow_.options());
  observed_since_alarm_ = 0;
}

template <class Real>
void DriftTracker<Real>::RestartOnChangeSeenElsewhere(BasicLearner<Real>& learner,
                                                     double ridge) {
  Rearm();
  Relearn(learner, remembered_, ridge);
}

template <class Real>
void DriftTracker<Real>::OrderRing(std::vector<double>& inputs_in_order,
                                   std::vector<Real>& targets_in_order,
                                   std::vector<double>* errors_in_order) const {
  const int oldest = remembered_ < kRelearnedLines ? 0 : next_;
  inputs_in_order.clear();
  targets_in_order.clear();
  if (errors_in_order != nullptr) errors_in_order->clear();
  for (int i = 0; i < remembered_; ++i) {
    const std::size_t slot = static_cast<std::size_t>((oldest + i) % kRelearnedLines);
    if (errors_in_order != nullptr) errors_in_order->push_back(errors_[slot]);
    const auto inputs = inputs_.begin() + static_cast<std::ptrdiff_t>(slot * input_dimension_);
    const auto targets = targets_.begin() + static_cast<std::ptrdiff_t>(slot * num_outputs_);
    inputs_in_order.insert(inputs_in_order.end(), inputs, inputs + input_dimension_);
    targets_in_order.insert(targets_in_order.end(), targets, targets + num_outputs_);
  }
}

template <class Real>
void DriftTracker<Real>::NewestLines(int lines, std::vector<double>& inputs,
                                     std::vector<Real>& targets) const {
  OrderRing(inputs, targets);
  const auto left_out = static_cast<std::ptrdiff_t>(remembered_ - lines);
  inputs.erase(inputs.begin(), inputs.begin() + left_out * static_cast<std::ptrdiff_t>(input_dimension_));
  targets.erase(targets.begin(), targets.begin() + left_out * static_cast<std::ptrdiff_t>(num_outputs_));
}

template <class Real>
void DriftTracker<Real>::Relearn(BasicLearner<Real>& learner, int lines, double ridge) {
  NewestLines(lines, ordered_inputs_, ordered_targets_);
  learner.ForgetToPrior(ordered_inputs_, ordered_targets_, ridge);
  // The ring holds the model's lines only, their errors (the old model's)
  // unknown: a later alarm neither relearns a line dropped here nor judges
  // the new model by the old one's errors.
  std::vector<std::int64_t> line_numbers;
  const int oldest = remembered_ < kRelearnedLines ? 0 : next_;
  for (int i = remembered_ - lines; i < remembered_; ++i) {
    line_numbers.push_back(lines_[static_cast<std::size_t>((oldest + i) % kRelearnedLines)]);
  }
  std::copy(ordered_inputs_.begin(), ordered_inputs_.end(), inputs_.begin());
  std::copy(ordered_targets_.begin(), ordered_targets_.end(), targets_.begin());
  std::copy(line_numbers.begin(), line_numbers.end(), lines_.begin());
  std::fill(errors_.begin(), errors_.end(), std::numeric_limits<double>::quiet_NaN());
  remembered_ = lines;
  next_ = lines % kRelearnedLines;
  // Lines a block learned after the alarm but the ring no longer holds
  // count too (the detectors have seen them).
  lines_since_restart_ = std::max<std::int64_t>(lines, observed_since_alarm_);
}

template <class Real>
bool DriftTracker<Real>::Restart(BasicLearner<Real>& learner, double ridge) {
  const Drift alarm = alarm_.value_or(Drift{});
  alarm_.reset();
  std::vector<double> inputs, errors;
  std::vector<Real> targets;
  OrderRing(inputs, targets, &errors);
  // The newest lines whose errors are known (a loaded checkpoint's are not).
  int known = 0;
  while (known < remembered_ && !std::isnan(errors[errors.size() - 1 - known])) ++known;
  if (known < kMinTestedLines) {
    Relearn(learner, remembered_, ridge);
    drifts_.push_back(alarm);
    return true;
  }
  const std::span<const double> judged = std::span<const double>(errors).last(known);
  // At least a few lines, and every line the detectors have seen since the
  // alarm (a block learned after it), which the restarted model must hold.
  const int lines = std::min(
      known, std::max({LinesSinceRise(judged), kMinTestedLines,
                       static_cast<int>(std::min<std::int64_t>(observed_since_alarm_, known))}));
  // A model learned anew on those lines, scored a priori on them against
  // the errors the model made there.
  NewestLines(lines, inputs, targets);
  BasicLearner<Real> candidate = learner;
  std::vector<Real> priors(targets.size());
  candidate.ForgetToPrior(inputs, targets, ridge, priors);
  double fresh = 0;
  for (std::size_t at = 0; at < targets.size(); ++at) {
    const double error = static_cast<double>(targets[at]) - static_cast<double>(priors[at]);
    fresh += error * error;
  }
  const std::span<const double> since_rise = judged.last(static_cast<std::size_t>(lines));
  const double old = std::accumulate(since_rise.begin(), since_rise.end(), 0.0);
  if (!(fresh <= kDeclineRatio * old)) {
    ++declined_alarms_;
    return false;
  }
  // The learner itself forgets and relearns (not the copy moved in): its
  // feature map stays in place for a thread that maps rows meanwhile.
  Relearn(learner, lines, ridge);
  drifts_.push_back(alarm);
  return true;
}

template <class Real>
DriftTrackingState DriftTracker<Real>::State(int unlearned) const {
  std::vector<double> inputs;
  std::vector<Real> targets;
  OrderRing(inputs, targets);
  const auto left_out = static_cast<std::size_t>(std::clamp(unlearned, 0, remembered_));
  inputs.resize(inputs.size() - left_out * input_dimension_);
  targets.resize(targets.size() - left_out * num_outputs_);
  return DriftTrackingState{{fast_.state(), slow_.state()},
                            std::move(inputs),
                            std::vector<double>(targets.begin(), targets.end()),
                            lines_since_restart_ - static_cast<std::int64_t>(left_out)};
}

template <class Real>
bool DriftTracker<Real>::Restore(const DriftTrackingState& state) {
  const std::size_t lines = input_dimension_ == 0 ? 0 : state.inputs.size() / input_dimension_;
  if (state.detectors.size() != 2 || lines > kRelearnedLines ||
      state.inputs.size() != lines * input_dimension_ ||
      state.targets.size() != lines * num_outputs_) {
    return false;
  }
  fast_.Restore(state.detectors[0]);
  slow_.Restore(state.detectors[1]);
  // The lines go back into the ring oldest first, as Remember() put them.
  std::copy(state.inputs.begin(), state.inputs.end(), inputs_.begin());
  std::copy(state.targets.begin(), state.targets.end(), targets_.begin());
  remembered_ = static_cast<int>(lines);
  next_ = remembered_ % kRelearnedLines;
  // Their line numbers and errors are not kept: the next alarm within
  // kRelearnedLines lines is taken untested.
  std::fill(lines_.begin(), lines_.end(), -1);
  std::fill(errors_.begin(), errors_.end(), std::numeric_limits<double>::quiet_NaN());
  lines_since_restart_ = state.lines_since_restart;
  return true;
}

template class DriftTracker<float>;
template class DriftTracker<double>;

}  // namespace rffstream
