// File: rffstream/stream/task_outputs.h
//
// How a task's labels become the model's targets and its outputs become an
// answer: regression targets less their offsets (Task::target_offsets),
// which answers get back; a class c becomes the one-vs-rest vector (+1 at
// c, -1 elsewhere), and the answer is the output with the largest value.
// Shared by learn, predict and serve.
#ifndef RFFSTREAM_STREAM_TASK_OUTPUTS_H_
#define RFFSTREAM_STREAM_TASK_OUTPUTS_H_

#include <algorithm>
#include <cmath>
#include <optional>
#include <span>
#include <string>

#include "absl/strings/str_cat.h"
#include "rffstream/task.h"

namespace rffstream {

// Why a classifier's label is not a class, or nullopt when it is one.
inline std::optional<std::string> InvalidClassLabel(const Task& task, double label) {
  if (!task.is_classifier() ||
      (label == std::floor(label) && label >= 0 && label < task.num_classes)) {
    return std::nullopt;
  }
  return absl::StrCat("class label ", label, " is not an integer in [0, ", task.num_classes,
                      ") (--classes)");
}

// REQUIRES: labels.size() == task.num_targets(), model_targets.size() ==
// task.num_outputs(), a classifier's label valid (InvalidClassLabel).
template <class Real>
void EncodeTargets(const Task& task, std::span<const double> labels, std::span<Real> model_targets) {
  if (task.is_classifier()) {
    std::fill(model_targets.begin(), model_targets.end(), Real{-1});
    model_targets[static_cast<int>(labels[0])] = Real{1};
  } else if (task.target_offsets.empty()) {
    std::copy(labels.begin(), labels.end(), model_targets.begin());
  } else {
    for (std::size_t o = 0; o < model_targets.size(); ++o) {
      model_targets[o] = static_cast<Real>(labels[o] - task.target_offsets[o]);
    }
  }
}

// A regression learner's outputs as answers: its targets' offsets
// (Task::target_offsets) added back; nothing for a classifier or a task
// without offsets. REQUIRES: outputs.size() == task.num_outputs(). In
// double: a float32 answer far from zero would lose the digits the
// offsets kept.
template <class Value>
void AddTargetOffsets(const Task& task, std::span<Value> outputs) {
  if (task.target_offsets.empty()) return;
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    outputs[o] = static_cast<Value>(outputs[o] + task.target_offsets[o]);
  }
}

// The predicted class: the output with the largest value.
template <class Real>
int PredictedClass(std::span<const Real> outputs) {
  return static_cast<int>(std::max_element(outputs.begin(), outputs.end()) - outputs.begin());
}

template <class Real>
bool AllFinite(std::span<const Real> values) {
  return std::all_of(values.begin(), values.end(), [](Real value) { return std::isfinite(value); });
}

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_TASK_OUTPUTS_H_
