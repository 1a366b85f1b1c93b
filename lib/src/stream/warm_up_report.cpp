#include "rffstream/stream/warm_up.h"

#include <cmath>
#include <set>
#include <span>
#include <string>

#include "absl/strings/str_format.h"

namespace rffstream {
namespace {

// The tuning error as shown: rmse for regression, the error rate of a classifier.
const char* ErrorName(const Task& task) { return task.is_classifier() ? "error rate" : "rmse"; }
double ShownError(const Task& task, double error) {
  return task.is_classifier() ? error : std::sqrt(error);
}

// One table of leave-one-out errors: a row per bandwidth, a column per ridge.
void AppendGrid(std::string& out, const TuningResult& tuned, const Task& task, KernelKind kernel,
               int features, std::span<const double> gammas, std::span<const double> errors) {
  absl::StrAppendFormat(&out,
               "leave-one-out %s, kernel %s, %d features (* = chosen: among the points within "
               "2%% of the least, the best on the window's first quarter and half)\n%12s",
               ErrorName(task),
               KernelKindName(kernel), features, "gamma \\ ridge");
  for (double ridge : tuned.ridges) absl::StrAppendFormat(&out, " %10.3g", ridge);
  absl::StrAppendFormat(&out, "\n");
  const std::size_t ridges = tuned.ridges.size();
  for (std::size_t g = 0; g < gammas.size(); ++g) {
    absl::StrAppendFormat(&out, "%12.4g", gammas[g]);
    for (std::size_t r = 0; r < ridges; ++r) {
      const bool chosen = kernel == tuned.kernel && gammas[g] == tuned.gamma &&
                          tuned.ridges[r] == tuned.ridge &&
                          (tuned.refined_features == 0 || features == tuned.refined_features);
      absl::StrAppendFormat(&out, " %9.4g%s", ShownError(task, errors[g * ridges + r]), chosen ? "*" : " ");
    }
    absl::StrAppendFormat(&out, "\n");
  }
}

void AppendTables(std::string& out, const TuningResult& tuned, const Task& task) {
  const std::size_t per_kernel = tuned.gammas.size() * tuned.ridges.size();
  for (std::size_t k = 0; k < tuned.kernels.size(); ++k) {
    AppendGrid(out, tuned, task, tuned.kernels[k], tuned.features, tuned.gammas,
              std::span<const double>(tuned.errors).subspan(k * per_kernel, per_kernel));
  }
  if (tuned.refined_features > 0) {
    absl::StrAppendFormat(&out, "then the best bandwidth and the two above it again, with more features:\n");
    AppendGrid(out, tuned, task, tuned.kernel, tuned.refined_features, tuned.refined_gammas,
              tuned.refined_errors);
  }
}

}  // namespace

std::string WarmUpReport(const WarmUpDecision& decision, const Task& task, bool quiet, bool table) {
  std::string out;
  if (!decision.fallback.empty()) {
    absl::StrAppendFormat(&out, "rffstream: automatic settings: %s\n", decision.fallback);
  }
  const FrequencySelection& selection = decision.config.features.selection;
  if (!quiet && !selection.selected.empty()) {
    const std::set<int> distinct(selection.selected.begin(), selection.selected.end());
    absl::StrAppendFormat(&out,
                 "leverage features: %zu frequencies drawn from %d candidates by their ridge "
                 "leverage on the warm-up window (%zu distinct)\n",
                 selection.selected.size(), selection.candidates, distinct.size());
  }
  if (quiet || !decision.tuning.has_value()) return out;
  const TuningResult& tuned = *decision.tuning;
  absl::StrAppendFormat(&out,
               "tuned on the first %d labelled lines by leave-one-out: kernel %s, gamma %.6g, "
               "ridge %.6g (leave-one-out %s %.6g; the model with these settings then learns "
               "those lines)\n",
               tuned.rows, KernelKindName(tuned.kernel), tuned.gamma,
               tuned.ridge, ErrorName(task), ShownError(task, tuned.error));
  if (table) AppendTables(out, tuned, task);
  return out;
}

}  // namespace rffstream
