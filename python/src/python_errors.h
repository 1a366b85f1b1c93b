// File: python/src/python_errors.h
//
// Errors as Python users expect them: a Status as the exception of its kind
// (ValueError, OSError, MemoryError, ...), and the checks of arrays and
// samples that name the row and column of a bad value.
#ifndef RFFSTREAM_PYTHON_PYTHON_ERRORS_H_
#define RFFSTREAM_PYTHON_PYTHON_ERRORS_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "stream_estimator.h"

namespace rffstream::python {

namespace py = pybind11;

// A Status that is not ok as the Python exception of its kind.
[[noreturn]] void Raise(const absl::Status& status);
void Check(const absl::Status& status);

// Raises ValueError naming the first value that is not finite (or, with
// `missing_allowed`, infinite: a NaN input is a missing value).
void CheckFinite(std::span<const double> values, std::size_t columns, const char* what,
                 bool missing_allowed = false);

// A refused sample (a number too large for the model) was not learned;
// the others were: ValueError naming each refused one.
void RaiseRefused(const std::vector<RefusedSample>& refused);

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

}  // namespace rffstream::python

#endif  // RFFSTREAM_PYTHON_PYTHON_ERRORS_H_
