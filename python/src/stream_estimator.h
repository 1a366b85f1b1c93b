// File: python/src/stream_estimator.h
//
// The engine behind the Python module's estimators: the command line's
// stream pipeline (rffstream/stream/stream_pipeline.h) fed with numbers instead of
// lines, so that a model learned in Python is the model `rffstream learn`
// learns from the same samples — the same warm-up window (standardization,
// automatic kernel, bandwidth and ridge), the same exact updates, the same
// running metrics and checkpoints. Knows nothing of Python: module.cpp
// converts Python objects and calls it (with the GIL released for blocks).
#ifndef RFFSTREAM_PYTHON_STREAM_ESTIMATOR_H_
#define RFFSTREAM_PYTHON_STREAM_ESTIMATOR_H_

#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rffstream/stream/line_outcome.h"
#include "rffstream/stream/options.h"
#include "rffstream/checkpoint.h"
#include "rffstream/stream/stream_pipeline.h"

namespace rffstream::python {

// What a new model learns.
struct EstimatorShape {
  int num_inputs = 0;
  int num_targets = 1;  // regression targets (1 for a classifier)
  int num_classes = 0;  // K >= 2 for a classifier
  // Names of the inputs then of the targets (from dict samples), or empty.
  std::vector<std::string> column_names;
  // A classifier's labels as text, in class order, saved with the model; or empty.
  std::vector<std::string> class_labels;
  // Input columns of text (Task::categorical_columns): each takes
  // category_buckets inputs, hashed on the Python side as the CSV parser
  // hashes (rffstream.text); num_inputs counts the columns.
  std::vector<int> categorical_columns;
  int category_buckets = Task::kDefaultCategoryBuckets;
  bool text_class_labels = false;  // Task::text_class_labels
};

// A sample that was not learned, and why.
struct RefusedSample {
  std::int64_t sample = 0;  // 1-based over the estimator's life
  std::string reason;
};

template <class Real>
class StreamEstimator : private OutcomeSink {
 public:
  // A new model; `block`: labelled rows learned together in one exact update.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<StreamEstimator>> Create(
      ModelOptions options, int block, const EstimatorShape& shape);
  // A checkpoint's model, to go on learning and predicting.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<StreamEstimator>> Resume(
      BasicCheckpoint<Real> checkpoint, int block, std::string source);
  StreamEstimator(const StreamEstimator&) = delete;
  StreamEstimator& operator=(const StreamEstimator&) = delete;

  const Task& task() const { return pipeline_->task(); }
  // The values a sample's answer holds: 1 (the class) for a classifier, one
  // prediction per target otherwise.
  int answer_width() const { return task().is_classifier() ? 1 : task().num_outputs(); }

  // Learns k samples in order (rows of num_inputs values; targets: rows of
  // num_targets values, a class index for a classifier), then learns any
  // incomplete block. Each sample's a-priori answer goes to `answers` (k ×
  // answer_width()); NaN for a sample held in the warm-up window (answered,
  // and counted in the metrics, when the window is full) or refused, which
  // is appended to `refused`. REQUIRES: finite inputs and targets, valid
  // classes (module.cpp checks them first, naming the row and column).
  [[nodiscard]] absl::Status Learn(std::span<const double> inputs, std::span<const double> targets,
                                   std::span<double> answers, std::vector<RefusedSample>& refused);
  // Builds the model from the samples held so far, as the end of a stream
  // does: the window's decisions are made on what it holds. Held samples
  // refused then (too large for the model) are appended to `refused`.
  [[nodiscard]] absl::Status EndWarmUp(std::vector<RefusedSample>& refused);

  bool has_model() const { return pipeline_->learner() != nullptr; }
  // Samples waiting in the warm-up window (none once the model exists).
  const std::vector<WarmUpLine>& held() const { return pipeline_->held_lines(); }
  int window_samples() const { return pipeline_->window_lines(); }
  const BasicLearner<Real>& learner() const { return *pipeline_->learner(); }
  const ModelStage<Real>& stage() const { return pipeline_->model(); }
  void set_clip_predictions(bool clip) { pipeline_->mutable_model().set_clip_predictions(clip); }

  // Every output's value for k rows (k × num_outputs). REQUIRES: has_model().
  void Predict(std::span<const double> inputs, std::span<double> outputs) const noexcept;
  // Single-output models: the prediction and its predictive variance.
  void PredictWithVariance(std::span<const double> inputs, std::span<double> predictions,
                           std::span<double> variances) noexcept;
  // One sample's outputs at any time: the model's, or while the window
  // fills the provisional model's, as the window's lines are answered
  // (before its first fit, the mean of each target learned so far: 0
  // before any; for a classifier the mean of its ±1 one-vs-rest targets,
  // largest for the most frequent class).
  void PredictOne(std::span<const double> input, std::span<double> outputs) noexcept;

  // The checkpoint (the CLI's format) as bytes, or in a file. REQUIRES: has_model().
  [[nodiscard]] absl::StatusOr<std::string> Serialize() const;
  [[nodiscard]] absl::Status Save(const std::string& path) const;

  // The pipeline's notes (OutcomeSink::Note) since the last call.
  std::string TakeMessages() { return std::exchange(notes_, std::string()); }

 private:
  explicit StreamEstimator(PipelineSettings settings);
  bool Take(const LineOutcome& outcome) override;
  void Note(std::string_view lines) override { notes_.append(lines); }

  std::string notes_;
  std::unique_ptr<StreamPipeline<Real>> pipeline_;
  std::int64_t next_sample_ = 1;
  // The current Learn() call: its first sample and where its answers go.
  std::int64_t call_first_sample_ = 0;
  std::span<double> call_answers_;
  std::vector<RefusedSample>* call_refused_ = nullptr;
  // Sums of the encoded targets held in the warm-up window (PredictOne).
  std::vector<double> held_target_sums_;
  std::int64_t held_labelled_ = 0;
  std::vector<double> encoded_targets_;
  std::vector<Real> converted_outputs_;
};

extern template class StreamEstimator<float>;
extern template class StreamEstimator<double>;

}  // namespace rffstream::python

#endif  // RFFSTREAM_PYTHON_STREAM_ESTIMATOR_H_
