// File: python/src/engine.h
//
// The engine behind a Python estimator: a StreamEstimator of one precision
// with its lock, fed numpy arrays (whole rows, the GIL released while it
// works) or one sample at a time (SampleReader). Every call takes the
// engine's lock, so one model may be used from several threads.
#ifndef RFFSTREAM_PYTHON_ENGINE_H_
#define RFFSTREAM_PYTHON_ENGINE_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine_report.h"
#include "python_errors.h"
#include "rffstream/checkpoint.h"
#include "sample_reader.h"
#include "stream_estimator.h"

namespace rffstream::python {

namespace py = pybind11;

// A new engine for a checkpoint (module.cpp): WithClass makes one.
template <class Real>
py::object ResumeEngine(absl::StatusOr<BasicCheckpoint<Real>> checkpoint, int block,
                        const std::string& source);

template <class Real>
class Engine {
 public:
  explicit Engine(std::unique_ptr<StreamEstimator<Real>> estimator)
      : estimator_(std::move(estimator)),
        reader_(InputNames(estimator_->task()),
                static_cast<std::size_t>(estimator_->task().num_inputs()),
                static_cast<std::size_t>(estimator_->task().num_targets()),
                !estimator_->task().categorical_columns.empty()) {
    const Task& task = estimator_->task();
    num_inputs_ = static_cast<std::size_t>(task.num_inputs());
    num_outputs_ = static_cast<std::size_t>(task.num_outputs());
    one_input_.resize(num_inputs_);
    one_target_.resize(static_cast<std::size_t>(task.num_targets()));
    one_outputs_.resize(num_outputs_);
    one_answer_.resize(static_cast<std::size_t>(estimator_->answer_width()));
  }

  // Learns the rows of X (float64, k × inputs) with targets Y (float64, k ×
  // targets); returns the a-priori answers (k × answer width).
  py::array_t<double> Learn(const py::array_t<double, py::array::c_style>& x,
                            const py::array_t<double, py::array::c_style>& y);

  // One sample: a dict of named inputs, a sequence or a 1-D array; a target
  // (a number, or a sequence of one per target). Returns the warm-up
  // window's notes when this sample completed it, else None.
  py::object LearnOne(py::handle x, py::handle y) {
    const std::unique_lock<std::mutex> lock = Lock();
    reader_.ReadInputs(x, one_input_);
    reader_.ReadTargets(y, one_target_);
    CheckClasses(one_target_);
    refused_.clear();
    const bool had_model = estimator_->has_model();
    Check(estimator_->Learn(one_input_, one_target_, one_answer_, refused_));
    RaiseRefused(refused_);
    if (had_model || !estimator_->has_model()) return py::none();
    return py::str(estimator_->TakeMessages());
  }

  // Output 0 for one sample.
  double PredictOne(py::handle x) {
    const std::unique_lock<std::mutex> lock = Lock();
    PredictOneOutputs(x);
    return one_outputs_[0];
  }
  // Every output for one sample.
  py::array_t<double> PredictOutputsOne(py::handle x) {
    const std::unique_lock<std::mutex> lock = Lock();
    PredictOneOutputs(x);
    return py::array_t<double>(static_cast<py::ssize_t>(one_outputs_.size()), one_outputs_.data());
  }
  // The index of the largest output for one sample.
  int PredictClassOne(py::handle x) {
    const std::unique_lock<std::mutex> lock = Lock();
    PredictOneOutputs(x);
    return static_cast<int>(std::max_element(one_outputs_.begin(), one_outputs_.end()) -
                            one_outputs_.begin());
  }

  // Every output for the rows of X (in the model's precision): k × outputs.
  py::array_t<double> Predict(const py::array_t<double, py::array::c_style>& x);
  // Output and predictive variance for the rows of X: a model of one output.
  py::tuple PredictWithVariance(const py::array_t<double, py::array::c_style>& x);

  void SetClipPredictions(bool clip) {
    const std::unique_lock<std::mutex> lock = Lock();
    estimator_->set_clip_predictions(clip);
  }

  void EndWarmUp() {
    absl::Status ended;
    std::vector<RefusedSample> refused;
    {
      py::gil_scoped_release release;
      const std::lock_guard<std::mutex> lock(*mutex_);
      ended = estimator_->EndWarmUp(refused);
    }
    Check(ended);
    RaiseRefused(refused);
  }

  // A new engine: this model with a class first seen in the stream, as if
  // it had been declared from the start (AddClass in checkpoint.h).
  py::object WithClass(const std::string& label, int block) {
    absl::StatusOr<BasicCheckpoint<Real>> checkpoint = [&] {
      const std::unique_lock<std::mutex> lock = Lock();
      RequireModel();
      return absl::StatusOr<BasicCheckpoint<Real>>(estimator_->stage().Snapshot());
    }();
    Check(AddClass(*checkpoint, label));
    return ResumeEngine(std::move(checkpoint), block, "the model");
  }

  py::bytes Serialize() {
    const std::unique_lock<std::mutex> lock = Lock();
    RequireModel();
    absl::StatusOr<std::string> bytes = estimator_->Serialize();
    Check(bytes.status());
    return py::bytes(*bytes);
  }
  void Save(const std::string& path) {
    const std::unique_lock<std::mutex> lock = Lock();
    RequireModel();
    if (absl::Status saved = estimator_->Save(path); !saved.ok()) {
      PyErr_SetString(PyExc_OSError, std::string(saved.message()).c_str());
      throw py::error_already_set();
    }
  }

  // The keys of dict samples' inputs (SampleReader::SetKeys).
  void SetInputKeys(const py::list& keys) {
    const std::unique_lock<std::mutex> lock = Lock();
    reader_.SetKeys(keys);
  }

  // The samples held in the warm-up window: (X, y) as float64 arrays.
  py::tuple Held() {
    const std::unique_lock<std::mutex> lock = Lock();
    std::vector<double> inputs, targets;
    for (const WarmUpLine& line : estimator_->held()) {
      if (line.kind != WarmUpLine::Kind::kData) continue;
      inputs.insert(inputs.end(), line.inputs.begin(), line.inputs.end());
      targets.insert(targets.end(), line.targets.begin(), line.targets.end());
    }
    const auto rows = static_cast<py::ssize_t>(inputs.size() / num_inputs_);
    return py::make_tuple(
        py::array_t<double>({rows, static_cast<py::ssize_t>(num_inputs_)}, inputs.data()),
        py::array_t<double>({rows, static_cast<py::ssize_t>(one_target_.size())}, targets.data()));
  }

  // What the model is: its settings once built (chosen on the warm-up
  // window when automatic), its counters.
  py::dict Description() {
    const std::unique_lock<std::mutex> lock = Lock();
    return DescribeModel(*estimator_);
  }

  // With forget='auto', the changes detected: (sample, size).
  py::list Drifts() {
    const std::unique_lock<std::mutex> lock = Lock();
    return DetectedDrifts(*estimator_);
  }

  // With gamma and ridge 'auto', their later choices.
  py::dict SettingsChanges() {
    const std::unique_lock<std::mutex> lock = Lock();
    return rffstream::python::SettingsChanges(*estimator_);
  }

  // The running (progressive) metrics of the samples answered.
  py::dict Metrics() {
    const std::unique_lock<std::mutex> lock = Lock();
    return ProgressiveMetrics(*estimator_);
  }

  bool has_model() const { return estimator_->has_model(); }
  std::string TakeMessages() {
    const std::unique_lock<std::mutex> lock = Lock();
    return estimator_->TakeMessages();
  }

 private:
  // The engine's lock, taken by every call. A call that finds it held (by
  // a thread learning with the GIL released) waits without the GIL, so
  // that the holder can take the GIL back and finish.
  std::unique_lock<std::mutex> Lock() {
    std::unique_lock<std::mutex> lock(*mutex_, std::try_to_lock);
    if (!lock.owns_lock()) {
      py::gil_scoped_release release;
      lock.lock();
    }
    return lock;
  }

  // One sample's outputs; a float32 model refuses a number it cannot hold.
  void PredictOneOutputs(py::handle x) {
    reader_.ReadInputs(x, one_input_);
    estimator_->PredictOne(one_input_, one_outputs_);
    if (!std::all_of(one_outputs_.begin(), one_outputs_.end(),
                     [](double value) { return std::isfinite(value); })) {
      throw py::value_error(
          "x: a number is too large for the model (its features or prediction would not be "
          "finite)");
    }
  }
  void RequireModel() const {
    if (!estimator_->has_model()) throw py::value_error("no model yet: nothing was learned");
  }

  // A NaN input is a missing value (FeatureMap::Map); an infinite one, or
  // one beyond the model's precision, is refused.
  void CheckInputsFit(std::span<const double> values) const {
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (!(std::abs(values[i]) > static_cast<double>(std::numeric_limits<Real>::max()))) continue;
      throw py::value_error(absl::StrCat("X row ", i / num_inputs_, ", column ", i % num_inputs_,
                                         " is ", values[i],
                                         ": values must be finite and within the model's "
                                         "precision (NaN means missing)"));
    }
  }

  void CheckClasses(std::span<const double> targets) const {
    const int classes = estimator_->task().num_classes;
    if (classes == 0) return;
    for (std::size_t row = 0; row < targets.size(); ++row) {
      const double label = targets[row];
      if (label == std::floor(label) && label >= 0 && label < classes) continue;
      throw py::value_error(absl::StrCat("y row ", row, " is class ", label,
                                         ", not one of the model's ", classes,
                                         " classes; nothing was learned"));
    }
  }







  std::unique_ptr<StreamEstimator<Real>> estimator_;
  SampleReader reader_;
  std::size_t num_inputs_ = 0;
  std::size_t num_outputs_ = 0;
  std::unique_ptr<std::mutex> mutex_ = std::make_unique<std::mutex>();  // movable engines
  std::vector<double> one_input_;
  std::vector<double> one_target_;
  std::vector<double> one_outputs_;
  std::vector<double> one_answer_;
  std::vector<RefusedSample> refused_;
};

}  // namespace rffstream::python

#endif  // RFFSTREAM_PYTHON_ENGINE_H_
