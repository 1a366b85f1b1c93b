// File: python/src/engine_report.h
//
// What an engine tells Python about its model, as dicts and lists: the
// settings as built and the counters (`model_`), the progressive metrics
// (`metrics_`) and the changes of the stream detected (`drifts_`).
#ifndef RFFSTREAM_PYTHON_ENGINE_REPORT_H_
#define RFFSTREAM_PYTHON_ENGINE_REPORT_H_

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "rffstream/task.h"
#include "stream_estimator.h"

namespace rffstream::python {

namespace py = pybind11;

// The names of the task's input columns, in order; none without a header.
std::vector<std::string> InputNames(const Task& task);

// The samples held in the warm-up window.
template <class Real>
int HeldSamples(const StreamEstimator<Real>& estimator);

template <class Real>
py::dict DescribeModel(const StreamEstimator<Real>& estimator);
template <class Real>
py::dict ProgressiveMetrics(const StreamEstimator<Real>& estimator);
template <class Real>
py::list DetectedDrifts(const StreamEstimator<Real>& estimator);
template <class Real>
py::dict SettingsChanges(const StreamEstimator<Real>& estimator);

}  // namespace rffstream::python

#endif  // RFFSTREAM_PYTHON_ENGINE_REPORT_H_
