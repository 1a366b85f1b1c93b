// A data-parallel rank that gathers only (ModelStage::TrackInformation):
// each labelled line is predicted with the last merged model and joins the
// delta; the learner changes only at the merges.
#include <cmath>
#include <limits>

#include "internal/safe_bounds.h"
#include "rffstream/stream/model_stage.h"
#include "rffstream/stream/task_outputs.h"

namespace rffstream {

template <class Real>
bool ModelStage<Real>::Gather(std::int64_t line_number, std::span<const double> inputs,
                              std::span<const Real> row, std::span<const double> targets,
                              Real variance, OutcomeSink& sink) {
  EncodeTargets<Real>(task_, targets, model_targets_);
  learner_->PredictRowOutputs(row, priors_);
  if (!AllFinite<Real>(priors_) || !AddToDelta(row, model_targets_, priors_, line_number)) {
    return Refuse(line_number, inputs, targets, sink);
  }
  if (ridge_) ridge_->Learned(model_targets_);
  if (bandwidth_) bandwidth_->Learned(inputs, model_targets_);
  FollowSettings(line_number);
  return Answer(line_number, priors_, variance, targets, /*learned=*/true, sink);
}

template <class Real>
void ModelStage<Real>::PredictBlockForGathering() {
  const std::size_t outputs = model_targets_.size();
  const auto row_length = static_cast<std::size_t>(learner_->row_length());
  for (std::size_t s = 0; s < block_line_numbers_.size(); ++s) {
    const std::span<Real> priors = std::span<Real>(block_priors_).subspan(s * outputs, outputs);
    learner_->PredictRowOutputs(std::span<const Real>(block_rows_).subspan(s * row_length, row_length),
                                priors);
  }
}

template <class Real>
bool ModelStage<Real>::AddToDelta(std::span<const Real> row, std::span<const Real> targets,
                                  std::span<const Real> priors, std::int64_t line_number) {
  if (gathers_only_) {
    // The bounds a sample learned one at a time keeps (internal/safe_bounds.h):
    // a sample the merged model could not take is refused here, by its line,
    // not found at the merge.
    for (std::size_t output = 0; output < targets.size(); ++output) {
      const double target = targets[output];
      const double error = target - static_cast<double>(priors[output]);
      if (!(std::abs(target) < std::sqrt(internal::kSafeBound<Real>)) ||
          !(error * error < internal::kSafeBound<Real>)) {
        return false;
      }
    }
    ++gathered_;
    for (std::size_t output = 0; output < targets.size(); ++output) {
      gathered_squares_[output] += static_cast<double>(targets[output]) * targets[output];
    }
  }
  delta_->Add(row, targets, line_number - clock_offset_);
  return true;
}

#define RFFSTREAM_GATHERING(Real)                                                              \
  template bool ModelStage<Real>::Gather(std::int64_t, std::span<const double>,                \
                                         std::span<const Real>, std::span<const double>, Real, \
                                         OutcomeSink&);                                        \
  template void ModelStage<Real>::PredictBlockForGathering();                                  \
  template bool ModelStage<Real>::AddToDelta(std::span<const Real>, std::span<const Real>,     \
                                             std::span<const Real>, std::int64_t);
RFFSTREAM_GATHERING(float)
RFFSTREAM_GATHERING(double)
#undef RFFSTREAM_GATHERING

}  // namespace rffstream
