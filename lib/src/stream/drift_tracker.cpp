#include "rffstream/stream/drift_tracker.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace rffstream {

template <class Real>
DriftTracker<Real>::DriftTracker(int input_dimension, int num_outputs)
    : slow_(ChangeDetector::Options{.short_half_life = 500,
                                    .long_half_life = 10000,
                                    .threshold = 1.5,
                                    .min_samples = 1000}),
      input_dimension_(static_cast<std::size_t>(input_dimension)),
      num_outputs_(static_cast<std::size_t>(num_outputs)),
      inputs_(kRelearnedLines * input_dimension_),
      targets_(kRelearnedLines * num_outputs_) {}

template <class Real>
bool DriftTracker<Real>::Remember(std::span<const double> inputs, std::span<const Real> targets) {
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
  const bool fast = fast_.Add(squared_error);
  const bool slow = slow_.Add(squared_error);
  if (!fast && !slow) return false;
  drifts_.push_back({line, fast ? fast_.last_change_ratio() : slow_.last_change_ratio()});
  Rearm();
  return true;
}

template <class Real>
void DriftTracker<Real>::Rearm() {
  fast_ = ChangeDetector(fast_.options());
  slow_ = ChangeDetector(slow_.options());
}

template <class Real>
void DriftTracker<Real>::RestartOnChangeSeenElsewhere(BasicLearner<Real>& learner,
                                                     double ridge) {
  Rearm();
  Restart(learner, ridge);
}

template <class Real>
void DriftTracker<Real>::OrderRing(std::vector<double>& inputs_in_order,
                                   std::vector<Real>& targets_in_order) const {
  const int oldest = remembered_ < kRelearnedLines ? 0 : next_;
  inputs_in_order.clear();
  targets_in_order.clear();
  for (int i = 0; i < remembered_; ++i) {
    const std::size_t slot = static_cast<std::size_t>((oldest + i) % kRelearnedLines);
    const auto inputs = inputs_.begin() + static_cast<std::ptrdiff_t>(slot * input_dimension_);
    const auto targets = targets_.begin() + static_cast<std::ptrdiff_t>(slot * num_outputs_);
    inputs_in_order.insert(inputs_in_order.end(), inputs, inputs + input_dimension_);
    targets_in_order.insert(targets_in_order.end(), targets, targets + num_outputs_);
  }
}

template <class Real>
void DriftTracker<Real>::Restart(BasicLearner<Real>& learner, double ridge) {
  OrderRing(ordered_inputs_, ordered_targets_);
  learner.ForgetToPrior(ordered_inputs_, ordered_targets_, ridge);
  lines_since_restart_ = remembered_;
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
  lines_since_restart_ = state.lines_since_restart;
  return true;
}

template class DriftTracker<float>;
template class DriftTracker<double>;

}  // namespace rffstream
