#include "drift_tracker.h"

#include <algorithm>

namespace rffstream::app {

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
      priors_(num_outputs_) {}

template <class Real>
void DriftTracker<Real>::Remember(std::span<const double> inputs, std::span<const Real> targets) {
  std::copy(inputs.begin(), inputs.end(), inputs_.begin() + next_ * input_dimension_);
  std::copy(targets.begin(), targets.end(), targets_.begin() + next_ * num_outputs_);
  next_ = (next_ + 1) % kRelearnedLines;
  remembered_ = std::min(remembered_ + 1, kRelearnedLines);
  ++lines_since_restart_;
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
  // Both start over from the new regime.
  fast_ = ChangeDetector(fast_.options());
  slow_ = ChangeDetector(slow_.options());
  return true;
}

template <class Real>
void DriftTracker<Real>::Restart(BasicLearner<Real>& learner) {
  learner.ForgetToPrior();
  const int oldest = remembered_ < kRelearnedLines ? 0 : next_;
  for (int i = 0; i < remembered_; ++i) {
    const std::size_t slot = static_cast<std::size_t>((oldest + i) % kRelearnedLines);
    learner.LearnOutputs(
        std::span<const Real>(inputs_).subspan(slot * input_dimension_, input_dimension_),
        std::span<const Real>(targets_).subspan(slot * num_outputs_, num_outputs_), priors_);
  }
  lines_since_restart_ = remembered_;
}

template class DriftTracker<float>;
template class DriftTracker<double>;

}  // namespace rffstream::app
