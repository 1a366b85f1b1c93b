// File: rffstream/stream/provisional_model.h
//
// The warm-up window's stand-in model: it answers each line of the window
// when the line arrives, while the window gathers the lines that the tuned
// model's settings are chosen on. No line waits for the window to fill.
//
// Until kFirstFitLines labelled lines have come, it answers their targets'
// mean (a classifier: the most frequent class). Then, and again each time
// the count doubles, it refits: the inputs standardized on the lines so far;
// what the options leave automatic (kernel, bandwidth, ridge) chosen by the
// window's leave-one-out tuning at kMaxTuningFeatures features while the
// lines are at most kMaxTunedLines, else (or when the tuning cannot choose)
// the bandwidth by the median heuristic and the options' stand-ins (keeping
// the choice of 256 lines for the refits of a classifier's longer window
// measured worse on Letters: accuracy 0.699 against 0.725 in the window);
// at most kMaxFeatures features; a regression's targets less their mean.
// The lines so far are learned again, and each later line is predicted,
// then learned.
// Measured on the shared streams (bench/real_data.py): a first fit at 4
// lines rather than 16 lowered every stream's window error.
#ifndef RFFSTREAM_STREAM_PROVISIONAL_MODEL_H_
#define RFFSTREAM_STREAM_PROVISIONAL_MODEL_H_

#include <optional>
#include <span>
#include <vector>

#include "rffstream/stream/options.h"
#include "rffstream/learner.h"
#include "rffstream/task.h"

namespace rffstream {

class ProvisionalModel {
 public:
  static constexpr int kFirstFitLines = 4;
  static constexpr int kMaxFeatures = 256;
  static constexpr int kMaxTunedLines = 256;
  static constexpr int kMaxTuningFeatures = 64;

  // `config`: the options' configuration for `task` (LearnerConfigFromOptions).
  ProvisionalModel(const ModelOptions& options, LearnerConfig config, const Task& task);

  // The model's outputs for `inputs` (encoded as the learner's, see
  // task_outputs.h), always finite. REQUIRES: inputs.size() == task.num_inputs().
  std::span<const double> Predict(std::span<const double> inputs);
  // The predictive variance of a one-output model (BasicLearner::
  // PredictWithVariance); NaN, unknown, before the first fit.
  double Variance(std::span<const double> inputs);

  // A labelled line of the window, after it was answered. REQUIRES: its
  // inputs and labels are TameNumbers (warm_up.h).
  void Learn(std::span<const double> inputs, std::span<const double> labels);

 private:
  void Refit();
  // The model of `config`, which learns the lines so far: `targets`, their
  // labels less `offsets`, which its answers then get back.
  void Start(LearnerConfig config, std::span<const double> targets, std::vector<double> offsets);
  std::span<const double> TargetMeans();

  const ModelOptions options_;
  LearnerConfig config_;
  const Task task_;
  // The labelled lines so far: inputs and encoded targets, row-major.
  std::vector<double> inputs_;
  std::vector<double> targets_;
  int lines_ = 0;
  int next_fit_ = kFirstFitLines;
  std::optional<Learner> learner_;
  std::vector<double> encoded_;
  std::vector<double> outputs_;
  // A regression's targets are learned less their mean at the last refit
  // (as the tuned model's are less the window's, Task::target_offsets).
  std::vector<double> offsets_;
};

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_PROVISIONAL_MODEL_H_
