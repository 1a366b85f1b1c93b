#include "stream_estimator.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "rffstream/stream/input_format.h"
#include "rffstream/stream/model_options.h"
#include "rffstream/stream/task_outputs.h"

namespace rffstream::python {
namespace {

// The pipeline of a stream fed with numbers: no header, answers in input
// order once the window is decided, quiet notes (only the fallbacks).
PipelineSettings SettingsFor(ModelOptions options, int block) {
  PipelineSettings settings;
  settings.model = std::move(options);
  settings.reads_header = false;
  settings.block_size = block;
  settings.quiet = true;
  return settings;
}

// The input options that describe a shape: the targets are the last columns.
InputOptions InputOptionsFor(const EstimatorShape& shape) {
  InputOptions input;
  input.classes = shape.num_classes;
  input.max_inputs = std::max(input.max_inputs, shape.num_inputs);
  if (shape.num_targets > 1) {
    std::vector<int> columns;
    for (int t = 0; t < shape.num_targets; ++t) columns.push_back(shape.num_inputs + t);
    input.targets = absl::StrJoin(columns, ",");
  }
  return input;
}

}  // namespace

template <class Real>
StreamEstimator<Real>::StreamEstimator(PipelineSettings settings)
    : pipeline_(std::make_unique<StreamPipeline<Real>>(
          std::move(settings), static_cast<OutcomeSink&>(*this))) {}

template <class Real>
absl::StatusOr<std::unique_ptr<StreamEstimator<Real>>> StreamEstimator<Real>::Create(
    ModelOptions options, int block, const EstimatorShape& shape) {
  if (block < 1) return absl::InvalidArgumentError(absl::StrCat("block=", block, ": must be >= 1"));
  if (shape.num_inputs < 1 || shape.num_targets < 1) {
    return absl::InvalidArgumentError("a model needs at least one input and one target");
  }
  const InputOptions input = InputOptionsFor(shape);
  if (absl::Status valid = ValidateModelOptions(options, input, false, block); !valid.ok()) {
    return valid;
  }
  absl::StatusOr<Task> task =
      TaskFromOptions(input, options, "", shape.column_names, 0,
                           shape.num_inputs + shape.num_targets);
  if (!task.ok()) return task.status();
  task->class_labels = shape.class_labels;
  task->text_class_labels = shape.text_class_labels;
  task->categorical_columns = shape.categorical_columns;
  task->category_buckets = shape.category_buckets;
  if (absl::Status valid = task->Validate(); !valid.ok()) return valid;
  std::unique_ptr<StreamEstimator> estimator(
      new StreamEstimator(SettingsFor(std::move(options), block)));
  if (absl::Status begun = estimator->pipeline_->Begin(*task); !begun.ok()) return begun;
  estimator->held_target_sums_.assign(static_cast<std::size_t>(task->num_outputs()), 0.0);
  estimator->encoded_targets_ = estimator->held_target_sums_;
  return estimator;
}

template <class Real>
absl::StatusOr<std::unique_ptr<StreamEstimator<Real>>> StreamEstimator<Real>::Resume(
    BasicCheckpoint<Real> checkpoint, int block, std::string source) {
  if (block < 1) return absl::InvalidArgumentError(absl::StrCat("block=", block, ": must be >= 1"));
  std::unique_ptr<StreamEstimator> estimator(
      new StreamEstimator(SettingsFor(ModelOptions(), block)));
  estimator->held_target_sums_.assign(
      static_cast<std::size_t>(checkpoint.record.task.num_outputs()), 0.0);
  if (absl::Status resumed = estimator->pipeline_->Resume(std::move(checkpoint), std::move(source));
      !resumed.ok()) {
    return resumed;
  }
  return estimator;
}

template <class Real>
absl::Status StreamEstimator<Real>::Learn(std::span<const double> inputs,
                                          std::span<const double> targets,
                                          std::span<double> answers,
                                          std::vector<RefusedSample>& refused) {
  const auto num_inputs = static_cast<std::size_t>(task().num_inputs());
  const auto num_targets = static_cast<std::size_t>(task().num_targets());
  const std::size_t rows = inputs.size() / num_inputs;
  std::fill(answers.begin(), answers.end(), std::numeric_limits<double>::quiet_NaN());
  call_first_sample_ = next_sample_;
  call_answers_ = answers;
  call_refused_ = &refused;
  ParsedLine parsed;
  parsed.kind = ParsedLine::Kind::kValues;
  parsed.labelled = true;
  absl::Status status;
  for (std::size_t row = 0; row < rows && status.ok(); ++row) {
    const std::span<const double> sample_targets = targets.subspan(row * num_targets, num_targets);
    if (!has_model()) {
      EncodeTargets<double>(task(), sample_targets, encoded_targets_);
      for (std::size_t output = 0; output < encoded_targets_.size(); ++output) {
        held_target_sums_[output] += encoded_targets_[output];
      }
      ++held_labelled_;
    }
    parsed.line_number = next_sample_++;
    status = pipeline_->PushParsed(parsed, inputs.subspan(row * num_inputs, num_inputs), {},
                                   sample_targets);
  }
  if (status.ok()) status = pipeline_->FlushBlock();
  call_refused_ = nullptr;
  call_answers_ = {};
  return status;
}

template <class Real>
absl::Status StreamEstimator<Real>::EndWarmUp(std::vector<RefusedSample>& refused) {
  if (has_model() || held().empty()) return absl::OkStatus();
  call_first_sample_ = next_sample_;
  call_refused_ = &refused;
  absl::Status finished = pipeline_->Finish();
  call_refused_ = nullptr;
  return finished;
}

template <class Real>
bool StreamEstimator<Real>::Take(const LineOutcome& outcome) {
  const std::int64_t row = outcome.line_number - call_first_sample_;
  const bool in_call = row >= 0 && static_cast<std::size_t>(row) * answer_width() < call_answers_.size();
  if (outcome.kind == LineOutcome::Kind::kAnswer && in_call) {
    std::copy_n(outcome.values.begin(), answer_width(),
                call_answers_.begin() + row * answer_width());
  }
  if (outcome.kind == LineOutcome::Kind::kBad && call_refused_ != nullptr) {
    call_refused_->push_back({outcome.line_number, std::string(outcome.reason)});
  }
  return true;
}

template <class Real>
void StreamEstimator<Real>::Predict(std::span<const double> inputs,
                                    std::span<double> outputs) const noexcept {
  const BasicLearner<Real>& model = learner();
  const auto num_inputs = static_cast<std::size_t>(model.input_dimension());
  const auto num_outputs = static_cast<std::size_t>(model.config().num_outputs);
  Real values[256];
  std::vector<Real> many;
  std::span<Real> row_outputs(values, num_outputs);
  if (num_outputs > std::size(values)) {
    many.resize(num_outputs);
    row_outputs = many;
  }
  for (std::size_t row = 0; row * num_inputs < inputs.size(); ++row) {
    model.PredictOutputs(inputs.subspan(row * num_inputs, num_inputs), row_outputs);
    std::copy(row_outputs.begin(), row_outputs.end(), outputs.begin() + row * num_outputs);
    stage().ToAnswers(outputs.subspan(row * num_outputs, num_outputs));
  }
}

template <class Real>
void StreamEstimator<Real>::PredictWithVariance(std::span<const double> inputs,
                                                std::span<double> predictions,
                                                std::span<double> variances) noexcept {
  BasicLearner<Real>& model = *pipeline_->mutable_model().mutable_learner();
  const auto num_inputs = static_cast<std::size_t>(model.input_dimension());
  for (std::size_t row = 0; row < predictions.size(); ++row) {
    const auto answer = model.PredictWithVariance(inputs.subspan(row * num_inputs, num_inputs));
    predictions[row] = answer.prediction;
    variances[row] = answer.variance;
    stage().ToAnswers(predictions.subspan(row, 1));
  }
}

template <class Real>
void StreamEstimator<Real>::PredictOne(std::span<const double> input,
                                       std::span<double> outputs) noexcept {
  if (!has_model()) {
    // The warm-up window's answers: its provisional model's, else the
    // targets' mean so far.
    if (pipeline_->PredictProvisionally(input, outputs)) return;
    for (std::size_t output = 0; output < outputs.size(); ++output) {
      outputs[output] = held_labelled_ == 0 ? 0.0 : held_target_sums_[output] / held_labelled_;
    }
    return;
  }
  converted_outputs_.resize(outputs.size());
  learner().PredictOutputs(input, converted_outputs_);
  std::copy(converted_outputs_.begin(), converted_outputs_.end(), outputs.begin());
  stage().ToAnswers(outputs);
}

template <class Real>
absl::StatusOr<std::string> StreamEstimator<Real>::Serialize() const {
  const BasicCheckpoint<Real> checkpoint = stage().Snapshot();
  std::ostringstream bytes;
  if (absl::Status written = WriteCheckpoint(bytes, checkpoint.learner, checkpoint.record);
      !written.ok()) {
    return written;
  }
  return std::move(bytes).str();
}

template <class Real>
absl::Status StreamEstimator<Real>::Save(const std::string& path) const {
  return stage().Save(path);
}

template class StreamEstimator<float>;
template class StreamEstimator<double>;

}  // namespace rffstream::python
