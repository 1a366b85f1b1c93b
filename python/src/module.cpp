// The compiled part of the Python module `rffstream` (`rffstream._engine`):
// the engine classes of both precisions (engine.h), the model options from
// keyword arguments, and the engines' factories (a new model, a checkpoint
// file, pickled bytes). The estimators' Python classes (python/rffstream/)
// are built on it.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine.h"
#include "rffstream/stream/model_options.h"
#include "rffstream/stream/option_text.h"
#include "rffstream/stream/options.h"
#include "python_errors.h"
#include "rffstream/checkpoint.h"
#include "rffstream/version.h"
#include "stream_estimator.h"

namespace py = pybind11;

namespace rffstream::python {

template <class Real>
py::object ResumeEngine(absl::StatusOr<BasicCheckpoint<Real>> checkpoint, int block,
                        const std::string& source) {
  Check(checkpoint.status());
  auto estimator = StreamEstimator<Real>::Resume(*std::move(checkpoint), block, source);
  Check(estimator.status());
  return py::cast(Engine<Real>(*std::move(estimator)));
}

namespace {

// The model options from the estimators' keyword arguments (the command
// line's names and values; any not given keeps the command line's default).
ModelOptions ModelOptionsFrom(const py::dict& parameters) {
  ModelOptions options;
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
    const auto& text_options = TextModelOptions();
    if (std::find(text_options.begin(), text_options.end(), name) != text_options.end()) {
      std::string text;
      as(text, "a string");  // _parameters.py spells numbers and lists as the command line does
      Check(SetModelOption(options, name, text));
    }
    else if (name == "features") as(options.features, "an integer");
    else if (name == "lengthscale") as(options.lengthscale, "a number");
    else if (name == "intercept") as(options.intercept, "True or False");
    else if (name == "seed") as(options.seed, "an integer in [0, 2**64)");
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
                        int category_buckets, bool text_class_labels) {
  ModelOptions options = ModelOptionsFrom(parameters);
  const EstimatorShape shape{num_inputs,
                             num_targets,
                             num_classes,
                             std::move(column_names),
                             std::move(class_labels),
                             std::move(categorical_columns),
                             category_buckets,
                             text_class_labels};
  if (options.precision == Precision::kFloat32) {
    auto estimator = StreamEstimator<float>::Create(std::move(options), block, shape);
    Check(estimator.status());
    return py::cast(Engine<float>(*std::move(estimator)));
  }
  auto estimator = StreamEstimator<double>::Create(std::move(options), block, shape);
  Check(estimator.status());
  return py::cast(Engine<double>(*std::move(estimator)));
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
      .def("set_clip_predictions", &E::SetClipPredictions, py::arg("clip"))
      .def("serialize", &E::Serialize)
      .def("with_class", &E::WithClass, py::arg("label"), py::arg("block"))
      .def("save", &E::Save, py::arg("path"))
      .def("held", &E::Held)
      .def("description", &E::Description)
      .def("metrics", &E::Metrics)
      .def("drifts", &E::Drifts)
      .def("settings_changes", &E::SettingsChanges)
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
             py::arg("category_buckets") = rffstream::Task::kDefaultCategoryBuckets,
             py::arg("text_class_labels") = false);
  module.def("load", &LoadEngine, py::arg("path"), py::arg("block"));
  module.def("from_bytes", &EngineFromBytes, py::arg("data"), py::arg("block"));
  module.attr("version") = std::string(rffstream::kVersion);
  module.attr("checkpoint_format") = rffstream::kCheckpointFormatVersion;
  module.attr("max_classes") = rffstream::kMaxClasses;
}
