// File: python/src/sample_reader.h
//
// One sample from Python: its inputs from a dict of named inputs (a key
// left out is missing), a sequence or a 1-D array (None or NaN: missing),
// its targets from a number or a sequence of one per target; a value that
// cannot be read is a ValueError that names it. A model with text columns
// takes only rows with their buckets, which the estimators encode
// (rffstream/_text.py).
#ifndef RFFSTREAM_PYTHON_SAMPLE_READER_H_
#define RFFSTREAM_PYTHON_SAMPLE_READER_H_

#include <pybind11/pybind11.h>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace rffstream::python {

namespace py = pybind11;

class SampleReader {
 public:
  // `input_names`: the keys of dict samples (none: the model takes no dicts).
  SampleReader(const std::vector<std::string>& input_names, std::size_t num_inputs,
               std::size_t num_targets, bool rows_only);

  // The keys of dict samples' inputs, in input order: the model's input
  // names (as str), or the keys of the first dict (any hashable).
  void SetKeys(const py::list& keys);

  // REQUIRES: values.size() == the number of inputs.
  void ReadInputs(py::handle x, std::span<double> values) const;
  // REQUIRES: targets.size() == the number of targets.
  void ReadTargets(py::handle y, std::span<double> targets) const;

 private:
  // x as a dict keyed by the model's input names (SetKeys): a key left out is
  // a missing value, a key the model does not know an error.
  void ReadDict(py::handle x, std::span<double> values) const;
  void CheckLength(std::size_t length) const;

  std::vector<py::object> keys_;
  std::size_t num_inputs_;
  std::size_t num_targets_;
  bool rows_only_;
};

}  // namespace rffstream::python

#endif  // RFFSTREAM_PYTHON_SAMPLE_READER_H_
