#include "rffstream/stream/warm_up.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <span>

#include "absl/strings/str_cat.h"
#include "internal/largest_number.h"
#include "rffstream/stream/model_options.h"
#include "rffstream/feature_map_config.h"
#include "rffstream/input_statistics.h"
#include "rffstream/leverage_features.h"
#include "rffstream/stream/task_outputs.h"

namespace rffstream {
namespace {


// The window's inputs with each missing value (NaN) as the feature map reads
// it (its mean, or 0 without standardization), for the samplers that take
// plain numbers.
void FillMissing(const FeatureMapConfig& features, std::vector<double>& inputs) {
  const std::size_t dimension = static_cast<std::size_t>(features.input_dimension);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (!std::isnan(inputs[i])) continue;
    inputs[i] = features.input_offset.empty() ? 0.0 : features.input_offset[i % dimension];
  }
}


}  // namespace

bool TameNumbers(std::span<const double> values) {
  return std::all_of(values.begin(), values.end(),
                     [](double value) { return !(std::abs(value) >= 1e150); });
}

void SetStandardization(const Task& task, const InputStatistics& statistics,
                        FeatureMapConfig& features) {
  features.input_offset = statistics.Means();
  features.input_scale = statistics.StandardDeviations();
  // A category's direction keeps unit length (two categories are √2 apart,
  // as two standardized values 1.4 deviations apart): standardizing its
  // buckets would stretch the rare ones.
  for (const int start : task.CategoryInputStarts()) {
    for (int input = start; input < start + task.category_buckets; ++input) {
      features.input_offset[input] = 0.0;
      features.input_scale[input] = 1.0;
    }
  }
}

TuningRequest TuningRequestFor(const ModelOptions& options, const Task& task) {
  TuningRequest request;
  request.tune_gamma = GammaFromWarmUp(options);
  request.tune_ridge = RidgeFromWarmUp(options);
  if (KernelFromWarmUp(options)) request.kernels = TuningKernels();
  request.criterion = task.is_classifier() ? LeaveOneOutCriterion::kMisclassification
                                           : LeaveOneOutCriterion::kSquaredError;
  // A data set's squared leave-one-out error is a mean that a few rows can
  // sway, and the least of it overfits rows unlike those (docs/real_data.md
  // measures the rule); a classifier's miss rate measured no better with it.
  if (options.window_is_data_set && !task.is_classifier()) {
    request.tie_break = TieBreak::kMostRegularized;
  }
  return request;
}

namespace {

// The window's labelled lines, their labels encoded as the model's targets.
void LabelledRows(const Task& task, const std::vector<WarmUpLine*>& lines,
                  std::vector<double>& inputs, std::vector<double>& targets) {
  std::vector<double> encoded(static_cast<std::size_t>(task.num_outputs()));
  for (const WarmUpLine* line : lines) {
    if (line->kind != WarmUpLine::Kind::kData || !line->labelled || !TameNumbers(line->inputs) ||
        !TameNumbers(line->targets)) {
      continue;
    }
    inputs.insert(inputs.end(), line->inputs.begin(), line->inputs.end());
    EncodeTargets<double>(task, line->targets, encoded);
    targets.insert(targets.end(), encoded.begin(), encoded.end());
  }
}

// The mean of each target over the window's labelled lines whose numbers
// are tame and finite; empty when there are none.
std::vector<double> TargetMeans(const Task& task, const std::vector<WarmUpLine*>& lines) {
  std::vector<double> sums(static_cast<std::size_t>(task.num_outputs()), 0.0);
  std::int64_t count = 0;
  for (const WarmUpLine* line : lines) {
    if (line->kind != WarmUpLine::Kind::kData || !line->labelled || !TameNumbers(line->inputs) ||
        !TameNumbers(line->targets) || !AllFinite(std::span<const double>(line->targets))) {
      continue;
    }
    for (std::size_t o = 0; o < sums.size(); ++o) sums[o] += line->targets[o];
    ++count;
  }
  if (count == 0) return {};
  for (double& sum : sums) sum /= static_cast<double>(count);
  return sums;
}

}  // namespace

WarmUpDecision DecideOnWarmUp(const ModelOptions& options, LearnerConfig config, const Task& task,
                              std::vector<WarmUpLine>& window, int window_lines) {
  // The window: its first `window_lines` data lines.
  std::vector<WarmUpLine*> lines;
  for (WarmUpLine& line : window) {
    if (line.kind != WarmUpLine::Kind::kData) continue;
    if (static_cast<int>(lines.size()) == window_lines) break;
    lines.push_back(&line);
  }
  WarmUpDecision decision;
  if (options.standardize > 0) {
    InputStatistics statistics(task.num_inputs());
    for (WarmUpLine* line : lines) {
      if (statistics.Add(line->inputs)) continue;
      line->kind = WarmUpLine::Kind::kNoAnswer;
      line->text = absl::StrCat(WarmUpDecision::kRefusal, ": ",
                                internal::LargestNumber(task, line->inputs, {}));
      decision.refused_lines.push_back(line->line_number);
    }
    SetStandardization(task, statistics, config.features);
    if (!task.is_classifier()) decision.target_offsets = TargetMeans(task, lines);
  }
  Task centred = task;  // the targets as the model learns them
  centred.target_offsets = decision.target_offsets;
  if (GammaFromWarmUp(options) || RidgeFromWarmUp(options) || KernelFromWarmUp(options)) {
    std::vector<double> inputs, targets;
    LabelledRows(centred, lines, inputs, targets);
    absl::StatusOr<TuningResult> tuned =
        TuneOnWarmUp(config, TuningRequestFor(options, task), inputs, targets);
    if (tuned.ok()) {
      config.features.kernel = tuned->kernel;
      config.features.gamma = tuned->gamma;
      config.ridge = tuned->ridge;
      decision.tuning = *std::move(tuned);
    } else {
      decision.fallback = absl::StrCat(std::string(tuned.status().message()), "; using kernel ",
                                       std::string(KernelKindName(config.features.kernel)),
                                       ", gamma ",
                                       config.features.gamma, ", ridge ", config.ridge);
    }
  }
  if (FeaturesFromWarmUp(options)) {
    std::vector<double> inputs;
    for (const WarmUpLine* line : lines) {
      if (line->kind != WarmUpLine::Kind::kData || !TameNumbers(line->inputs)) continue;
      inputs.insert(inputs.end(), line->inputs.begin(), line->inputs.end());
    }
    FillMissing(config.features, inputs);
    absl::StatusOr<FeatureMapConfig> selected =
        SelectFeaturesByLeverage(config.features, config.ridge, inputs);
    if (selected.ok()) {
      config.features = *std::move(selected);
    } else {
      absl::StrAppend(&decision.fallback, decision.fallback.empty() ? "" : "; ",
                      selected.status().message(), "; using iid features");
    }
  }
  decision.config = std::move(config);
  return decision;
}

}  // namespace rffstream
