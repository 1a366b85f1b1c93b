// The engine fed whole arrays: rows learned or predicted with the GIL
// released, the engine's lock held.
#include <span>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine.h"

namespace rffstream::python {

template <class Real>
py::array_t<double> Engine<Real>::Learn(const py::array_t<double, py::array::c_style>& x,
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

template <class Real>
py::array_t<double> Engine<Real>::Predict(const py::array_t<double, py::array::c_style>& x) {
  RequireModel();
  const std::span<const double> inputs = Matrix(x, num_inputs_, "X");
  CheckInputsFit(inputs);
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

template <class Real>
py::tuple Engine<Real>::PredictWithVariance(const py::array_t<double, py::array::c_style>& x) {
  RequireModel();
  if (num_outputs_ != 1) {
    throw py::value_error("predict_with_variance is for a model of one output (a regressor of one target)");
  }
  const std::span<const double> inputs = Matrix(x, num_inputs_, "X");
  CheckInputsFit(inputs);
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

template py::array_t<double> Engine<float>::Learn(const py::array_t<double, py::array::c_style>&,
                                                  const py::array_t<double, py::array::c_style>&);
template py::array_t<double> Engine<double>::Learn(const py::array_t<double, py::array::c_style>&,
                                                   const py::array_t<double, py::array::c_style>&);
template py::array_t<double> Engine<float>::Predict(const py::array_t<double, py::array::c_style>&);
template py::array_t<double> Engine<double>::Predict(const py::array_t<double, py::array::c_style>&);
template py::tuple Engine<float>::PredictWithVariance(const py::array_t<double, py::array::c_style>&);
template py::tuple Engine<double>::PredictWithVariance(const py::array_t<double, py::array::c_style>&);

}  // namespace rffstream::python
