// ModelStage's answers: a line's outputs as the answer the transport
// writes (a class; or the values, the targets' offsets added back and
// clipped, and the variance), scored when the line is labelled; and the
// refusal of a line whose numbers the model cannot take.
#include <cstdint>
#include <span>
#include <string>

#include "absl/strings/str_cat.h"
#include "internal/largest_number.h"

#include "rffstream/stream/model_stage.h"
#include "rffstream/stream/task_outputs.h"

namespace rffstream {

template <class Real>
bool ModelStage<Real>::AnswerProvisionally(std::int64_t line_number,
                                           std::span<const double> outputs, double variance,
                                           bool labelled, std::span<const double> targets,
                                           OutcomeSink& sink) {
  // The provisional model learned the targets as given; the answer adds
  // the offsets back.
  outputs_in_double_.assign(outputs.begin(), outputs.end());
  for (std::size_t o = 0; o < outputs.size() && !task_.target_offsets.empty(); ++o) {
    outputs_in_double_[o] -= task_.target_offsets[o];
  }
  if (!labelled) ++predicted_only_;
  const bool taken = AnswerWith(line_number, outputs_in_double_, variance,
                                labelled ? targets : std::span<const double>(),
                                /*learned=*/false, sink);
  // The provisional model learns a labelled line next: later answers of the
  // window are clipped to the range of its targets, as the model's are.
  // (Its first few lines know too little to keep an answer near them.)
  if (labelled && settings_.learns && !task_.is_classifier()) target_range_.Add(targets);
  return taken;
}

template <class Real>
void ModelStage<Real>::ToAnswers(std::span<double> outputs) const {
  AddTargetOffsets(task_, outputs);
  if (clip_predictions_) target_range_.Clip(outputs);
}

template <class Real>
bool ModelStage<Real>::Answer(std::int64_t line_number, std::span<const Real> outputs,
                              Real variance, std::span<const double> labels, bool learned,
                              OutcomeSink& sink) {
  outputs_in_double_.assign(outputs.begin(), outputs.end());
  return AnswerWith(line_number, outputs_in_double_, variance, labels, learned, sink);
}

template <class Real>
bool ModelStage<Real>::AnswerWith(std::int64_t line_number, std::span<const double> outputs,
                                  double variance, std::span<const double> labels, bool learned,
                                  OutcomeSink& sink) {
  answer_.clear();
  if (task_.is_classifier()) {
    answer_.push_back(PredictedClass(outputs));
  } else {
    // Scored as given: clipped, with the range of the lines before this one.
    answer_.assign(outputs.begin(), outputs.end());
    ToAnswers(std::span<double>(answer_).first(outputs.size()));
    if (settings_.with_variance) answer_.push_back(variance);
  }
  if (!labels.empty()) {
    if (task_.is_classifier()) {
      classification_.Add(PredictedClass(outputs), static_cast<int>(labels[0]));
    } else {
      for (std::size_t output = 0; output < outputs.size(); ++output) {
        target_metrics_[output].Add(answer_[output], labels[output]);
      }
      metrics_.Add(answer_[0], labels[0]);
      if (warm_up_ended_) warm_up_.after.Add(answer_[0], labels[0]);
      if (learned) target_range_.Add(labels);
    }
  }
  LineOutcome outcome;
  outcome.kind = LineOutcome::Kind::kAnswer;
  outcome.line_number = line_number;
  outcome.values = answer_;
  outcome.scored = !labels.empty();
  return sink.Take(outcome);
}

template <class Real>
bool ModelStage<Real>::Refuse(std::int64_t line_number, std::span<const double> inputs,
                              std::span<const double> labels, OutcomeSink& sink) const {
  // Refused because the model itself is no longer sound: the line's answer
  // is that error (the pipeline's), not "too large", which would blame it.
  if (!CheckSound().ok()) return true;
  LineOutcome outcome;
  outcome.kind = LineOutcome::Kind::kBad;
  outcome.line_number = line_number;
  const std::string largest = internal::LargestNumber(task_, inputs, labels);
  const std::string reason = largest.empty() ? std::string(kTooLarge) : absl::StrCat(kTooLarge, ": ", largest);
  outcome.reason = reason;
  return sink.Take(outcome);
}

#define RFFSTREAM_ANSWERS(Real)                                                                  \
  template bool ModelStage<Real>::AnswerProvisionally(std::int64_t, std::span<const double>,   \
                                                      double, bool, std::span<const double>,   \
                                                      OutcomeSink&);                           \
  template void ModelStage<Real>::ToAnswers(std::span<double>) const;                          \
  template bool ModelStage<Real>::Answer(std::int64_t, std::span<const Real>, Real,            \
                                         std::span<const double>, bool, OutcomeSink&);         \
  template bool ModelStage<Real>::AnswerWith(std::int64_t, std::span<const double>, double,    \
                                             std::span<const double>, bool, OutcomeSink&);     \
  template bool ModelStage<Real>::Refuse(std::int64_t, std::span<const double>,                \
                                         std::span<const double>, OutcomeSink&) const;
RFFSTREAM_ANSWERS(float)
RFFSTREAM_ANSWERS(double)
#undef RFFSTREAM_ANSWERS

}  // namespace rffstream
