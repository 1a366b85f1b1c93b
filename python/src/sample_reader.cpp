#include "sample_reader.h"

#include <pybind11/numpy.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"

namespace rffstream::python {
namespace {

// Reads an input: a number, or None or NaN for a missing value (NaN);
// ValueError naming it (`where()`: its name, made only for the message)
// when it is neither or infinite.
template <class Where>
double InputNumber(PyObject* value, const Where& where) {
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
double Number(PyObject* value, const Where& where) {
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

}  // namespace

SampleReader::SampleReader(const std::vector<std::string>& input_names, std::size_t num_inputs,
                           std::size_t num_targets, bool rows_only)
    : num_inputs_(num_inputs), num_targets_(num_targets), rows_only_(rows_only) {
  for (const std::string& name : input_names) keys_.push_back(py::str(name));
}

void SampleReader::SetKeys(const py::list& keys) {
  if (keys.size() != num_inputs_) {
    throw py::value_error(absl::StrCat(keys.size(), " input keys for ", num_inputs_, " inputs"));
  }
  keys_.clear();
  for (py::handle key : keys) keys_.push_back(py::reinterpret_borrow<py::object>(key));
}

void SampleReader::ReadDict(py::handle x, std::span<double> values) const {
  PyObject* object = x.ptr();
  if (keys_.empty()) {
    throw py::value_error(
        "x is a dict, but this model's inputs have no names (it learned from arrays): "
        "pass a sequence");
  }
  std::size_t present = 0;
  for (std::size_t i = 0; i < num_inputs_; ++i) {
    PyObject* value = PyDict_GetItemWithError(object, keys_[i].ptr());
    if (value == nullptr) {
      if (PyErr_Occurred()) throw py::error_already_set();
      values[i] = std::numeric_limits<double>::quiet_NaN();
      continue;
    }
    ++present;
    values[i] = InputNumber(value, [&] {
      return absl::StrCat("x[", std::string(py::repr(keys_[i])), "]");
    });
  }
  if (present != static_cast<std::size_t>(PyDict_Size(object))) {
    for (auto item : py::reinterpret_borrow<py::dict>(x)) {
      if (std::find_if(keys_.begin(), keys_.end(), [&](const py::object& key) {
            return key.equal(item.first);
          }) == keys_.end()) {
        throw py::value_error(absl::StrCat("x has an input the model does not know: ",
                                           std::string(py::str(item.first))));
      }
    }
  }
}

void SampleReader::ReadInputs(py::handle x, std::span<double> values) const {
  // A model with text columns takes rows with their buckets, which the
  // estimators encode (rffstream/_text.py).
  if (rows_only_ && !py::isinstance<py::array>(x)) {
    throw py::value_error("this model has text columns: x must be the row with their buckets");
  }
  PyObject* object = x.ptr();
  if (PyDict_Check(object)) {
    ReadDict(x, values);
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

void SampleReader::CheckLength(std::size_t length) const {
  if (length == num_inputs_) return;
  throw py::value_error(absl::StrCat("x has ", length, " inputs, but the model is expecting ",
                                     num_inputs_));
}

void SampleReader::ReadTargets(py::handle y, std::span<double> out) const {
  const bool scalar = !PySequence_Check(y.ptr()) || PyUnicode_Check(y.ptr()) ||
                      PyBytes_Check(y.ptr()) ||
                      (py::isinstance<py::array>(y) && py::reinterpret_borrow<py::array>(y).ndim() == 0);
  if (num_targets_ == 1 && scalar) {
    out[0] = Number(y.ptr(), [] { return "y"; });
  } else {
    const py::sequence targets = py::reinterpret_borrow<py::sequence>(y);
    if (targets.size() != num_targets_) {
      throw py::value_error(absl::StrCat("y has ", targets.size(), " targets, but the model has ",
                                         num_targets_));
    }
    for (std::size_t i = 0; i < num_targets_; ++i) {
      out[i] = Number(targets[i].ptr(), [i] { return absl::StrCat("y[", i, "]"); });
    }
  }
}

}  // namespace rffstream::python
