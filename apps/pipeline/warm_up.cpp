#include "pipeline/warm_up.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <span>

#include "absl/strings/str_cat.h"
#include "pipeline/model_options.h"
#include "rffstream/feature_map_config.h"
#include "rffstream/input_statistics.h"
#include "rffstream/leverage_features.h"
#include "pipeline/task_outputs.h"

namespace rffstream::app {
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

// The tuning error as shown: rmse for regression, the error rate of a classifier.
const char* ErrorName(const Task& task) { return task.is_classifier() ? "error rate" : "rmse"; }
double ShownError(const Task& task, double error) {
  return task.is_classifier() ? error : std::sqrt(error);
}

// One table of leave-one-out errors: a row per bandwidth, a column per ridge.
void PrintGrid(std::FILE* log, const TuningResult& tuned, const Task& task, KernelKind kernel,
               int features, std::span<const double> gammas, std::span<const double> errors) {
  std::fprintf(log,
               "leave-one-out %s, kernel %s, %d features (* = chosen: among the points within "
               "2%% of the least, the best on the window's first quarter and half)\n%12s",
               ErrorName(task),
               std::string(KernelKindName(kernel)).c_str(), features, "gamma \\ ridge");
  for (double ridge : tuned.ridges) std::fprintf(log, " %10.3g", ridge);
  std::fprintf(log, "\n");
  const std::size_t ridges = tuned.ridges.size();
  for (std::size_t g = 0; g < gammas.size(); ++g) {
    std::fprintf(log, "%12.4g", gammas[g]);
    for (std::size_t r = 0; r < ridges; ++r) {
      const bool chosen = kernel == tuned.kernel && gammas[g] == tuned.gamma &&
                          tuned.ridges[r] == tuned.ridge &&
                          (tuned.refined_features == 0 || features == tuned.refined_features);
      std::fprintf(log, " %9.4g%s", ShownError(task, errors[g * ridges + r]), chosen ? "*" : " ");
    }
    std::fprintf(log, "\n");
  }
}

void PrintTables(std::FILE* log, const TuningResult& tuned, const Task& task) {
  const std::size_t per_kernel = tuned.gammas.size() * tuned.ridges.size();
  for (std::size_t k = 0; k < tuned.kernels.size(); ++k) {
    PrintGrid(log, tuned, task, tuned.kernels[k], tuned.features, tuned.gammas,
              std::span<const double>(tuned.errors).subspan(k * per_kernel, per_kernel));
  }
  if (tuned.refined_features > 0) {
    std::fprintf(log, "then the best bandwidth and the two above it again, with more features:\n");
    PrintGrid(log, tuned, task, tuned.kernel, tuned.refined_features, tuned.refined_gammas,
              tuned.refined_errors);
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
      line->text = WarmUpDecision::kRefusal;
      decision.refused_lines.push_back(line->line_number);
    }
    SetStandardization(task, statistics, config.features);
  }
  if (GammaFromWarmUp(options) || RidgeFromWarmUp(options) || KernelFromWarmUp(options)) {
    // The labelled lines, their labels encoded as the model's targets.
    std::vector<double> inputs, targets;
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

void PrintWarmUpDecision(std::FILE* log, const WarmUpDecision& decision, const Task& task,
                         bool quiet, bool table) {
  if (!decision.fallback.empty()) {
    std::fprintf(log, "rffstream: automatic settings: %s\n", decision.fallback.c_str());
  }
  const FrequencySelection& selection = decision.config.features.selection;
  if (!quiet && !selection.selected.empty()) {
    const std::set<int> distinct(selection.selected.begin(), selection.selected.end());
    std::fprintf(log,
                 "leverage features: %zu frequencies drawn from %d candidates by their ridge "
                 "leverage on the warm-up window (%zu distinct)\n",
                 selection.selected.size(), selection.candidates, distinct.size());
  }
  if (quiet || !decision.tuning.has_value()) return;
  const TuningResult& tuned = *decision.tuning;
  std::fprintf(log,
               "tuned on the first %d labelled lines by leave-one-out: kernel %s, gamma %.6g, "
               "ridge %.6g (leave-one-out %s %.6g; those lines are then predicted with these "
               "settings)\n",
               tuned.rows, std::string(KernelKindName(tuned.kernel)).c_str(), tuned.gamma,
               tuned.ridge, ErrorName(task), ShownError(task, tuned.error));
  if (table) PrintTables(log, tuned, task);
}

}  // namespace rffstream::app
