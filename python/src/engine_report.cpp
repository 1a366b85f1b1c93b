#include "engine_report.h"

#include <pybind11/stl.h>

#include <algorithm>

#include "rffstream/feature_map_config.h"

namespace rffstream::python {

std::vector<std::string> InputNames(const Task& task) {
  const auto listed = [](const std::vector<int>& columns, int column) {
    return std::find(columns.begin(), columns.end(), column) != columns.end();
  };
  std::vector<std::string> names;
  for (int column = 0; column < task.num_fields && !task.column_names.empty(); ++column) {
    if (!listed(task.target_columns, column) && !listed(task.ignored_columns, column)) {
      names.push_back(task.column_names[column]);
    }
  }
  return names;
}

template <class Real>
int HeldSamples(const StreamEstimator<Real>& estimator) {
  int count = 0;
  for (const WarmUpLine& line : estimator.held()) {
    count += line.kind == WarmUpLine::Kind::kData;
  }
  return count;
}

// What the model is: its settings once built (chosen on the warm-up
// window when automatic), its counters.
template <class Real>
py::dict DescribeModel(const StreamEstimator<Real>& estimator) {
  const Task& task = estimator.task();
  py::dict description;
  description["num_inputs"] = task.num_inputs();
  description["num_outputs"] = task.num_outputs();
  description["num_classes"] = task.num_classes;
  description["column_names"] = task.column_names;
  description["class_labels"] = task.class_labels;
  description["text_class_labels"] = task.text_class_labels;
  description["input_names"] = InputNames(task);
  description["categorical_columns"] = task.categorical_columns;
  description["category_buckets"] = task.category_buckets;
  description["standardize"] = task.standardize_lines;
  description["window"] = estimator.window_samples();
  description["held"] = HeldSamples(estimator);
  description["has_model"] = estimator.has_model();
  if (!estimator.has_model()) return description;
  const BasicLearner<Real>& learner = estimator.learner();
  const LearnerConfig& config = learner.config();
  description["features"] = config.features.num_features;
  description["kernel"] = std::string(KernelKindName(config.features.kernel));
  description["gamma"] = config.features.gamma;
  description["lengthscales"] = config.features.lengthscales;
  description["ridge"] = config.ridge;
  if (estimator.task().drift_from_stream) {
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
template <class Real>
py::list DetectedDrifts(const StreamEstimator<Real>& estimator) {
  py::list drifts;
  if (const DriftTracker<Real>* drift = estimator.stage().drift()) {
    for (const typename DriftTracker<Real>::Drift& change : drift->drifts()) {
      drifts.append(py::make_tuple(change.line, change.size));
    }
  }
  return drifts;
}

// The settings chosen again as the model grew: under "gamma" and "ridge",
// (sample, samples chosen on, from, to) in stream order (samples chosen
// on 0: a drift restart went back to the window's ridge); under
// "standardization", after drift restarts, (sample, samples chosen on, 1,
// the largest factor by which an input's scale moved).
template <class Real>
py::dict SettingsChanges(const StreamEstimator<Real>& estimator) {
  const auto listed = [](const std::vector<SettingChange>& changes) {
    py::list list;
    for (const SettingChange& change : changes) {
      list.append(py::make_tuple(change.line, change.samples, change.from, change.to));
    }
    return list;
  };
  const ModelStage<Real>& stage = estimator.stage();
  py::dict changes;
  changes["gamma"] = stage.bandwidth_follower() != nullptr
                         ? listed(stage.bandwidth_follower()->changes())
                         : py::list();
  changes["ridge"] =
      stage.ridge_follower() != nullptr ? listed(stage.ridge_follower()->changes()) : py::list();
  changes["standardization"] = stage.bandwidth_follower() != nullptr
                                   ? listed(stage.bandwidth_follower()->standardizations())
                                   : py::list();
  return changes;
}

// The running (progressive) metrics of the samples answered: of the first
// target, with several targets each one's under "targets", and the
// warm-up window's part under "warm_up".
template <class Real>
py::dict ProgressiveMetrics(const StreamEstimator<Real>& estimator) {
  const ModelStage<Real>& stage = estimator.stage();
  py::dict metrics;
  const bool in_window = !estimator.has_model();
  metrics["learned"] = in_window ? 0 : estimator.learner().samples_learned();
  // The warm-up window's answers (the provisional model's), counted
  // above too: apart, for the reader who wants the tuned model's alone.
  // While the window fills, every answer so far is one of them.
  py::dict warm_up;
  if (estimator.task().is_classifier()) {
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

template int HeldSamples(const StreamEstimator<float>&);
template int HeldSamples(const StreamEstimator<double>&);
template py::dict DescribeModel(const StreamEstimator<float>&);
template py::dict DescribeModel(const StreamEstimator<double>&);
template py::dict ProgressiveMetrics(const StreamEstimator<float>&);
template py::dict ProgressiveMetrics(const StreamEstimator<double>&);
template py::list DetectedDrifts(const StreamEstimator<float>&);
template py::list DetectedDrifts(const StreamEstimator<double>&);
template py::dict SettingsChanges(const StreamEstimator<float>&);
template py::dict SettingsChanges(const StreamEstimator<double>&);

}  // namespace rffstream::python
