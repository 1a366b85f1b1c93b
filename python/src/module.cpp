// The compiled part of the Python module `rffstream` (`rffstream._engine`):
// one engine class per precision over StreamEstimator, the conversions
// from Python objects and numpy arrays, and the checks that name the row
// and column of a bad value. The estimators' Python classes
// (python/rffstream/) are built on it.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "model_options.h"
#include "options.h"
#include "rffstream/checkpoint.h"
#include "rffstream/feature_map_config.h"
#include "rffstream/version.h"
#include "stream_estimator.h"

namespace py = pybind11;

namespace rffstream::python {
namespace {

// A Status that is not ok as the Python exception of its kind.
[[noreturn]] void Raise(const absl::Status& status) {
  const std::string message(status.message());
  switch (status.code()) {
    case absl::StatusCode::kNotFound:
      PyErr_SetString(PyExc_FileNotFoundError, message.c_str());
      throw py::error_already_set();
    case absl::StatusCode::kResourceExhausted:
      PyErr_SetString(PyExc_MemoryError, message.c_str());
      throw py::error_already_set();
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
    case absl::StatusCode::kDataLoss:
      throw py::value_error(message);
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kInternal:
    case absl::StatusCode::kUnavailable:
      PyErr_SetString(PyExc_OSError, message.c_str());  // files: saving a checkpoint
      throw py::error_already_set();
    default:
      throw std::runtime_error(message);
  }
}

void Check(const absl::Status& status) {
  if (!status.ok()) Raise(status);
}

// Raises ValueError naming the first value that is not finite (or, with
// `missing_allowed`, infinite: a NaN input is a missing value).
void CheckFinite(std::span<const double> values, std::size_t columns, const char* what,
                 bool missing_allowed = false) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (missing_allowed ? !std::isinf(values[i]) : std::isfinite(values[i])) continue;
    throw py::value_error(absl::StrCat(what, " row ", i / columns, ", column ", i % columns, " is ",
                                       values[i],
                                       ": values must be finite (no NaN or inf); nothing was learned"));
  }
}

// The values of a 2-D array of `columns` columns (scikit-learn refuses 1-D
// arrays too: a row or a column is ambiguous).
template <class T>
std::span<const T> Matrix(const py::array_t<T, py::array::c_style>& array, std::size_t columns,
                          const char* what) {
  if (array.ndim() != 2) {
    throw py::value_error(absl::StrCat(what, " must be 2-D (rows of samples), got ", array.ndim(),
                                       "-D"));
  }
  if (static_cast<std::size_t>(array.shape(1)) != columns) {
    throw py::value_error(absl::StrCat(what, " has ", array.shape(1),
                                       " features, but the model is expecting ", columns,
                                       " features as input"));
  }
  return std::span<const T>(array.data(), static_cast<std::size_t>(array.size()));
}

template <class Real>
py::object ResumeEngine(absl::StatusOr<BasicCheckpoint<Real>> checkpoint, int block,
                        const std::string& source);

template <class Real>
class Engine {
 public:
  explicit Engine(std::unique_ptr<StreamEstimator<Real>> estimator)
      : estimator_(std::move(estimator)) {
    const Task& task = estimator_->task();
    num_inputs_ = static_cast<std::size_t>(task.num_inputs());
    num_outputs_ = static_cast<std::size_t>(task.num_outputs());
    for (const std::string& name : InputNames()) input_keys_.push_back(py::str(name));
    one_input_.resize(num_inputs_);
    one_target_.resize(static_cast<std::size_t>(task.num_targets()));
    one_outputs_.resize(num_outputs_);
    one_answer_.resize(static_cast<std::size_t>(estimator_->answer_width()));
  }

  // Learns the rows of X (float64, k × inputs) with targets Y (float64, k ×
  // targets); returns the a-priori answers (k × answer width).
  py::array_t<double> Learn(const py::array_t<double, py::array::c_style>& x,
                            const py::array_t<double, py::array::c_style>& y) {
    const std::span<const double> inputs = Matrix(x, num_inputs_, "X");
    const std::size_t num_targets = one_target_.size();
    const std::span<const double> targets = Matrix(y, num_targets, "y");
    if (x.shape(0) != y.shape(0)) {
      throw py::value_error(absl::StrCat("X has ", x.shape(0), " rows but y has ", y.shape(0)));
    }
    CheckFinite(inputs, num_inputs_, "X", /*missing_allowed=*/true);
    CheckFinite(targets, num_targets, "y");
    CheckClasses(targets);
    const auto width = static_cast<std::size_t>(estimator_->answer_width());
    py::array_t<double> answers({static_cast<py::ssize_t>(x.shape(0)), static_cast<py::ssize_t>(width)});
    std::vector<RefusedSample> refused;
    absl::Status learned;
    {
      py::gil_scoped_release release;
      const std::lock_guard<std::mutex> lock(*mutex_);
      learned = estimator_->Learn(inputs, targets,
                                  std::span<double>(answers.mutable_data(),
                                                    static_cast<std::size_t>(answers.size())),
                                  refused);
    }
    Check(learned);
    RaiseRefused(refused);
    return answers;
  }

  // One sample: a dict of named inputs, a sequence or a 1-D array; a target
  // (a number, or a sequence of one per target). Returns the warm-up
  // window's notes when this sample completed it, else None.
  py::object LearnOne(py::handle x, py::handle y) {
    const std::unique_lock<std::mutex> lock = Lock();
    ReadSample(x, one_input_);
    ReadTarget(y);
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
  py::array_t<double> Predict(const py::array_t<Real, py::array::c_style>& x) {
    RequireModel();
    const std::span<const Real> inputs = Matrix(x, num_inputs_, "X");
    CheckFiniteReal(inputs);
    py::array_t<double> outputs({static_cast<py::ssize_t>(x.shape(0)),
                                 static_cast<py::ssize_t>(num_outputs_)});
    const std::span<double> out(outputs.mutable_data(), static_cast<std::size_t>(outputs.size()));
    {
      py::gil_scoped_release release;
      const std::lock_guard<std::mutex> lock(*mutex_);
      estimator_->Predict(inputs, out);
    }
    return outputs;
  }

  py::tuple PredictWithVariance(const py::array_t<Real, py::array::c_style>& x) {
    RequireModel();
    if (num_outputs_ != 1) {
      throw py::value_error("predict_with_variance is for a model of one output (a regressor of one target)");
    }
    const std::span<const Real> inputs = Matrix(x, num_inputs_, "X");
    CheckFiniteReal(inputs);
    const auto rows = static_cast<py::ssize_t>(x.shape(0));
    py::array_t<double> predictions(rows), variances(rows);
    const std::span<double> p(predictions.mutable_data(), static_cast<std::size_t>(rows));
    const std::span<double> v(variances.mutable_data(), static_cast<std::size_t>(rows));
    {
      py::gil_scoped_release release;
      const std::lock_guard<std::mutex> lock(*mutex_);
      estimator_->PredictWithVariance(inputs, p, v);
    }
    return py::make_tuple(predictions, variances);
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

  // The keys of dict samples' inputs, in input order: the model's input
  // names (as str), or the keys of the first dict (any hashable).
  void SetInputKeys(const py::list& keys) {
    const std::unique_lock<std::mutex> lock = Lock();
    if (keys.size() != num_inputs_) {
      throw py::value_error(absl::StrCat(keys.size(), " input keys for ", num_inputs_, " inputs"));
    }
    input_keys_.clear();
    for (py::handle key : keys) input_keys_.push_back(py::reinterpret_borrow<py::object>(key));
  }

  // The samples held in the warm-up window: (X, y) as float64 arrays.
  py::tuple Held() {
    const std::unique_lock<std::mutex> lock = Lock();
    std::vector<double> inputs, targets;
    for (const app::WarmUpLine& line : estimator_->held()) {
      if (line.kind != app::WarmUpLine::Kind::kData) continue;
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
    const Task& task = estimator_->task();
    py::dict description;
    description["num_inputs"] = num_inputs_;
    description["num_outputs"] = num_outputs_;
    description["num_classes"] = task.num_classes;
    description["column_names"] = task.column_names;
    description["class_labels"] = task.class_labels;
    description["input_names"] = InputNames();
    description["categorical_columns"] = task.categorical_columns;
    description["category_buckets"] = task.category_buckets;
    description["standardize"] = task.standardize_lines;
    description["window"] = estimator_->window_samples();
    description["held"] = HeldCount();
    description["has_model"] = estimator_->has_model();
    if (!estimator_->has_model()) return description;
    const BasicLearner<Real>& learner = estimator_->learner();
    const LearnerConfig& config = learner.config();
    description["features"] = config.features.num_features;
    description["kernel"] = std::string(KernelKindName(config.features.kernel));
    description["gamma"] = config.features.gamma;
    description["lengthscales"] = config.features.lengthscales;
    description["ridge"] = config.ridge;
    if (estimator_->task().drift_from_stream) {
      description["forget"] = "auto";
    } else {
      description["forget"] = config.forgetting;
    }
    description["map"] = std::string(FeatureMapKindName(config.features.map));
    description["sampler"] = std::string(FrequencySamplerName(config.features.sampler));
    description["seed"] = config.features.seed;
    description["intercept"] = config.intercept;
    description["loss"] = std::string(LossName(config.loss));
    description["samples_learned"] = learner.samples_learned();
    description["updates"] = learner.updates();
    description["input_offset"] = config.features.input_offset;
    description["input_scale"] = config.features.input_scale;
    return description;
  }

  // With forget='auto', the changes detected: (sample, error level over
  // the level before), in stream order; samples count from 1.
  py::list Drifts() {
    const std::unique_lock<std::mutex> lock = Lock();
    py::list drifts;
    if (const app::DriftTracker<Real>* drift = estimator_->stage().drift()) {
      for (const typename app::DriftTracker<Real>::Drift& change : drift->drifts()) {
        drifts.append(py::make_tuple(change.line, change.size));
      }
    }
    return drifts;
  }

  // The running (progressive) metrics of the samples answered: of the first
  // target, with several targets each one's under "targets", and the
  // warm-up window's part under "warm_up".
  py::dict Metrics() {
    const std::unique_lock<std::mutex> lock = Lock();
    const app::ModelStage<Real>& stage = estimator_->stage();
    py::dict metrics;
    const bool in_window = !estimator_->has_model();
    metrics["learned"] = in_window ? 0 : estimator_->learner().samples_learned();
    // The warm-up window's answers (the provisional model's), counted
    // above too: apart, for the reader who wants the tuned model's alone.
    // While the window fills, every answer so far is one of them.
    py::dict warm_up;
    if (estimator_->task().is_classifier()) {
      const ClassificationMetrics& all = stage.classification();
      metrics["samples"] = all.count();
      metrics["accuracy"] = all.accuracy();
      warm_up["samples"] = in_window ? all.count() : stage.warm_up().classified;
      warm_up["accuracy"] = in_window ? all.accuracy() : stage.warm_up().accuracy();
      metrics["warm_up"] = warm_up;
      return metrics;
    }
    const auto add = [](py::dict& into, const RegressionMetrics& target) {
      into["rmse"] = target.root_mean_squared_error();
      into["mae"] = target.mean_absolute_error();
      into["r2"] = target.r_squared();
    };
    metrics["samples"] = stage.metrics().count();
    add(metrics, stage.metrics());
    const RegressionMetrics& window = in_window ? stage.metrics() : stage.warm_up().regression;
    warm_up["samples"] = window.count();
    add(warm_up, window);
    metrics["warm_up"] = warm_up;
    if (stage.target_metrics().size() > 1) {
      py::list targets;
      for (const RegressionMetrics& target : stage.target_metrics()) {
        py::dict one;
        add(one, target);
        targets.append(one);
      }
      metrics["targets"] = targets;
    }
    return metrics;
  }

  bool has_model() const { return estimator_->has_model(); }
  int HeldCount() const {
    int count = 0;
    for (const app::WarmUpLine& line : estimator_->held()) {
      count += line.kind == app::WarmUpLine::Kind::kData;
    }
    return count;
  }
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

  std::vector<std::string> InputNames() const {
    const Task& task = estimator_->task();
    std::vector<std::string> names;
    for (int column = 0; column < task.num_fields && !task.column_names.empty(); ++column) {
      if (IsInput(task, column)) names.push_back(task.column_names[column]);
    }
    return names;
  }

  // One sample's outputs; a float32 model refuses a number it cannot hold.
  void PredictOneOutputs(py::handle x) {
    ReadSample(x, one_input_);
    estimator_->PredictOne(one_input_, one_outputs_);
    if (!std::all_of(one_outputs_.begin(), one_outputs_.end(),
                     [](double value) { return std::isfinite(value); })) {
      throw py::value_error(
          "x: a number is too large for the model (its features or prediction would not be "
          "finite)");
    }
  }
  static bool IsInput(const Task& task, int column) {
    const auto contains = [column](const std::vector<int>& columns) {
      return std::find(columns.begin(), columns.end(), column) != columns.end();
    };
    return !contains(task.target_columns) && !contains(task.ignored_columns);
  }

  void RequireModel() const {
    if (!estimator_->has_model()) throw py::value_error("no model yet: nothing was learned");
  }

  // A NaN input is a missing value (FeatureMap::Map); an infinite one is refused.
  void CheckFiniteReal(std::span<const Real> values) const {
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (!std::isinf(values[i])) continue;
      throw py::value_error(absl::StrCat("X row ", i / num_inputs_, ", column ", i % num_inputs_,
                                         " is ", static_cast<double>(values[i]),
                                         ": values must be finite (NaN means missing)"));
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

  // A refused sample (a number too large for the model) was not learned;
  // the others were.
  static void RaiseRefused(const std::vector<RefusedSample>& refused) {
    if (refused.empty()) return;
    std::string message;
    for (const RefusedSample& sample : refused) {
      absl::StrAppend(&message, message.empty() ? "" : "; ", "sample ", sample.sample, ": ",
                      sample.reason);
    }
    throw py::value_error(absl::StrCat(
        message, refused.size() == 1 ? " (not learned" : " (those samples were not learned",
        "; every other sample was)"));
  }

  // Reads an input: a number, or None or NaN for a missing value (NaN);
  // ValueError naming it (`where()`: its name, made only for the message)
  // when it is neither or infinite.
  template <class Where>
  static double InputNumber(PyObject* value, const Where& where) {
    if (value == Py_None) return std::numeric_limits<double>::quiet_NaN();
    const double number = PyFloat_AsDouble(value);
    if (number == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      throw py::value_error(absl::StrCat(where(), " is not a number"));
    }
    if (std::isinf(number)) {
      throw py::value_error(absl::StrCat(where(), " is ", number,
                                         ": values must be finite (None or NaN means missing)"));
    }
    return number;
  }

  // Reads a target; ValueError naming it when it is none or not finite.
  template <class Where>
  static double Number(PyObject* value, const Where& where) {
    const double number = PyFloat_AsDouble(value);
    if (number == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      throw py::value_error(absl::StrCat(where(), " is not a number"));
    }
    if (!std::isfinite(number)) {
      throw py::value_error(absl::StrCat(where(), " is ", number,
                                         ": values must be finite (no NaN or inf)"));
    }
    return number;
  }

  void ReadSample(py::handle x, std::vector<double>& values) const {
    // A model with text columns takes rows with their buckets, which the
    // estimators encode (rffstream/_text.py).
    if (!estimator_->task().categorical_columns.empty() && !py::isinstance<py::array>(x)) {
      throw py::value_error("this model has text columns: x must be the row with their buckets");
    }
    PyObject* object = x.ptr();
    if (PyDict_Check(object)) {
      if (input_keys_.empty()) {
        throw py::value_error(
            "x is a dict, but this model's inputs have no names (it learned from arrays): "
            "pass a sequence");
      }
      // A key left out is a missing value; a key the model does not know is an error.
      std::size_t present = 0;
      for (std::size_t i = 0; i < num_inputs_; ++i) {
        PyObject* value = PyDict_GetItemWithError(object, input_keys_[i].ptr());
        if (value == nullptr) {
          if (PyErr_Occurred()) throw py::error_already_set();
          values[i] = std::numeric_limits<double>::quiet_NaN();
          continue;
        }
        ++present;
        values[i] = InputNumber(value, [&] {
          return absl::StrCat("x[", std::string(py::repr(input_keys_[i])), "]");
        });
      }
      if (present != static_cast<std::size_t>(PyDict_Size(object))) {
        for (auto item : py::reinterpret_borrow<py::dict>(x)) {
          if (std::find_if(input_keys_.begin(), input_keys_.end(), [&](const py::object& key) {
                return key.equal(item.first);
              }) == input_keys_.end()) {
            throw py::value_error(absl::StrCat("x has an input the model does not know: ",
                                               std::string(py::str(item.first))));
          }
        }
      }
      return;
    }
    if (py::isinstance<py::array>(x)) {
      const auto array = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(x);
      if (!array || array.ndim() != 1) throw py::value_error("x must be a 1-D array of numbers");
      CheckLength(static_cast<std::size_t>(array.size()));
      for (std::size_t i = 0; i < num_inputs_; ++i) {
        const double value = array.data()[i];
        if (std::isinf(value)) {
          throw py::value_error(absl::StrCat("x[", i, "] is ", value,
                                             ": values must be finite (NaN means missing)"));
        }
        values[i] = value;
      }
      return;
    }
    PyObject* sequence = PySequence_Fast(object, "x must be a dict of named inputs or a sequence");
    if (sequence == nullptr) {
      PyErr_Clear();
      throw py::value_error("x must be a dict of named inputs or a sequence of numbers");
    }
    const py::object owner = py::reinterpret_steal<py::object>(sequence);
    CheckLength(static_cast<std::size_t>(PySequence_Fast_GET_SIZE(sequence)));
    PyObject** items = PySequence_Fast_ITEMS(sequence);
    for (std::size_t i = 0; i < num_inputs_; ++i) {
      values[i] = InputNumber(items[i], [i] { return absl::StrCat("x[", i, "]"); });
    }
  }

  void CheckLength(std::size_t length) const {
    if (length == num_inputs_) return;
    throw py::value_error(absl::StrCat("x has ", length, " inputs, but the model is expecting ",
                                       num_inputs_));
  }

  void ReadTarget(py::handle y) {
    const bool scalar = !PySequence_Check(y.ptr()) || PyUnicode_Check(y.ptr()) ||
                        PyBytes_Check(y.ptr()) ||
                        (py::isinstance<py::array>(y) && py::reinterpret_borrow<py::array>(y).ndim() == 0);
    if (one_target_.size() == 1 && scalar) {
      one_target_[0] = Number(y.ptr(), [] { return "y"; });
    } else {
      const py::sequence targets = py::reinterpret_borrow<py::sequence>(y);
      if (targets.size() != one_target_.size()) {
        throw py::value_error(absl::StrCat("y has ", targets.size(), " targets, but the model has ",
                                           one_target_.size()));
      }
      for (std::size_t i = 0; i < one_target_.size(); ++i) {
        one_target_[i] = Number(targets[i].ptr(), [i] { return absl::StrCat("y[", i, "]"); });
      }
    }
    CheckClasses(one_target_);
  }

  std::unique_ptr<StreamEstimator<Real>> estimator_;
  std::size_t num_inputs_ = 0;
  std::size_t num_outputs_ = 0;
  std::unique_ptr<std::mutex> mutex_ = std::make_unique<std::mutex>();  // movable engines
  std::vector<py::object> input_keys_;
  std::vector<double> one_input_;
  std::vector<double> one_target_;
  std::vector<double> one_outputs_;
  std::vector<double> one_answer_;
  std::vector<RefusedSample> refused_;
};

// The model options from the estimators' keyword arguments (the command
// line's names and values; any not given keeps the command line's default).
app::ModelOptions ModelOptionsFrom(const py::dict& parameters) {
  app::ModelOptions options;
  for (auto item : parameters) {
    const std::string name = py::str(item.first);
    const py::handle value = item.second;
    if (value.is_none()) continue;
    options.given.Add(name);
    // A value of the wrong type: ValueError naming the option.
    const auto as = [&]<class T>(T& field, const char* expected) {
      const bool is_bool = PyBool_Check(value.ptr());
      const bool fits = std::is_same_v<T, bool> ? is_bool
                        : std::is_same_v<T, std::string> ? PyUnicode_Check(value.ptr()) != 0
                        : std::is_integral_v<T> ? !is_bool && PyLong_Check(value.ptr()) != 0
                                                : !is_bool && PyNumber_Check(value.ptr()) != 0;
      try {
        if (fits) {
          field = value.cast<T>();
          return;
        }
      } catch (const py::cast_error&) {
      }
      throw py::value_error(absl::StrCat(name, "=", std::string(py::repr(value)), ": expected ",
                                         expected));
    };
    if (name == "features") as(options.features, "an integer");
    else if (name == "map") as(options.map, "a string");
    else if (name == "kernel") as(options.kernel, "a string");
    else if (name == "sampler") as(options.sampler, "a string");
    else if (name == "lengthscales") as(options.lengthscales, "a string");
    else if (name == "gamma") as(options.gamma, "a string");
    else if (name == "lengthscale") as(options.lengthscale, "a number");
    else if (name == "ridge") as(options.ridge, "a string");
    else if (name == "forget") as(options.forget, "a number or 'auto'");
    else if (name == "intercept") as(options.intercept, "True or False");
    else if (name == "seed") as(options.seed, "an integer in [0, 2**64)");
    else if (name == "precision") as(options.precision, "a string");
    else if (name == "loss") as(options.loss, "a string");
    else if (name == "max_model_memory_mb") as(options.max_model_memory_mb, "an integer");
    else if (name == "standardize") as(options.standardize, "an integer");
    else if (name == "window_is_data_set") as(options.window_is_data_set, "True or False");
    else throw py::value_error(absl::StrCat("unknown model option '", name, "'"));
  }
  return options;
}

py::object CreateEngine(const py::dict& parameters, int block, int num_inputs, int num_targets,
                        int num_classes, std::vector<std::string> column_names,
                        std::vector<std::string> class_labels, std::vector<int> categorical_columns,
                        int category_buckets) {
  app::ModelOptions options = ModelOptionsFrom(parameters);
  const EstimatorShape shape{num_inputs,
                             num_targets,
                             num_classes,
                             std::move(column_names),
                             std::move(class_labels),
                             std::move(categorical_columns),
                             category_buckets};
  if (options.precision == "float32") {
    auto estimator = StreamEstimator<float>::Create(std::move(options), block, shape);
    Check(estimator.status());
    return py::cast(Engine<float>(*std::move(estimator)));
  }
  auto estimator = StreamEstimator<double>::Create(std::move(options), block, shape);
  Check(estimator.status());
  return py::cast(Engine<double>(*std::move(estimator)));
}

template <class Real>
py::object ResumeEngine(absl::StatusOr<BasicCheckpoint<Real>> checkpoint, int block,
                        const std::string& source) {
  Check(checkpoint.status());
  auto estimator = StreamEstimator<Real>::Resume(*std::move(checkpoint), block, source);
  Check(estimator.status());
  return py::cast(Engine<Real>(*std::move(estimator)));
}

// A checkpoint file of either precision.
py::object LoadEngine(const std::string& path, int block) {
  absl::StatusOr<int> bytes_per_number = ReadCheckpointPrecision(path);
  Check(bytes_per_number.status());
  if (*bytes_per_number == 4) return ResumeEngine(LoadCheckpoint<float>(path), block, path);
  return ResumeEngine(LoadCheckpoint<double>(path), block, path);
}

// Checkpoint bytes (pickles): the precision is the header's fourth field.
py::object EngineFromBytes(const py::bytes& data, int block) {
  const std::string bytes = data;
  constexpr std::size_t kPrecisionOffset = 16;
  std::uint32_t bytes_per_number = 8;
  if (bytes.size() >= kPrecisionOffset + 4) {
    std::memcpy(&bytes_per_number, bytes.data() + kPrecisionOffset, 4);
  }
  std::istringstream in(bytes);
  if (bytes_per_number == 4) return ResumeEngine(ReadCheckpoint<float>(in, "pickled model"), block, "pickled model");
  return ResumeEngine(ReadCheckpoint<double>(in, "pickled model"), block, "pickled model");
}

template <class Real>
void BindEngine(py::module_& module, const char* name) {
  using E = Engine<Real>;
  py::class_<E>(module, name)
      .def("learn", &E::Learn, py::arg("X"), py::arg("y"))
      .def("learn_one", &E::LearnOne, py::arg("x"), py::arg("y"))
      .def("predict_one", &E::PredictOne, py::arg("x"))
      .def("predict_outputs_one", &E::PredictOutputsOne, py::arg("x"))
      .def("predict_class_one", &E::PredictClassOne, py::arg("x"))
      .def("predict", &E::Predict, py::arg("X"))
      .def("predict_with_variance", &E::PredictWithVariance, py::arg("X"))
      .def("end_warm_up", &E::EndWarmUp)
      .def("serialize", &E::Serialize)
      .def("with_class", &E::WithClass, py::arg("label"), py::arg("block"))
      .def("save", &E::Save, py::arg("path"))
      .def("held", &E::Held)
      .def("description", &E::Description)
      .def("metrics", &E::Metrics)
      .def("drifts", &E::Drifts)
      .def("take_messages", &E::TakeMessages)
      .def("set_input_keys", &E::SetInputKeys, py::arg("keys"))
      .def_property_readonly("has_model", &E::has_model)
      .def_property_readonly("dtype", [](const E&) { return py::dtype::of<Real>(); });
}

}  // namespace
}  // namespace rffstream::python

PYBIND11_MODULE(_engine, module) {
  using namespace rffstream::python;
  module.doc() = "rffstream's compiled engine; use the classes of the rffstream package";
  BindEngine<double>(module, "Engine64");
  BindEngine<float>(module, "Engine32");
  module.def("create", &CreateEngine, py::arg("parameters"), py::arg("block"),
             py::arg("num_inputs"), py::arg("num_targets"), py::arg("num_classes"),
             py::arg("column_names"), py::arg("class_labels") = std::vector<std::string>(),
             py::arg("categorical_columns") = std::vector<int>(),
             py::arg("category_buckets") = rffstream::Task::kDefaultCategoryBuckets);
  module.def("load", &LoadEngine, py::arg("path"), py::arg("block"));
  module.def("from_bytes", &EngineFromBytes, py::arg("data"), py::arg("block"));
  module.attr("version") = std::string(rffstream::kVersion);
  module.attr("checkpoint_format") = rffstream::kCheckpointFormatVersion;
  module.attr("max_classes") = rffstream::app::kMaxClasses;
}
