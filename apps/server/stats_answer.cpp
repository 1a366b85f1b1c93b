#include "server/stats_answer.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "front/progress_table.h"
#include "rffstream/stream/option_text.h"

namespace rffstream::app {
namespace {

// The confusion counts row by row (true class), ';' between rows; for many
// classes the largest mistakes only ("true>predicted:count"), so that an
// answer stays small whatever K. For !stats.
std::string Confusions(const ClassificationMetrics& metrics) {
  std::string confusion;
  if (metrics.num_classes() <= ProgressTable::kMaxClassesShownWhole) {
    absl::StrAppend(&confusion, " confusion ");
    for (int actual = 0; actual < metrics.num_classes(); ++actual) {
      for (int predicted = 0; predicted < metrics.num_classes(); ++predicted) {
        absl::StrAppend(&confusion, predicted > 0 ? "," : actual > 0 ? ";" : "",
                        metrics.confusion(actual, predicted));
      }
    }
    return confusion;
  }
  absl::StrAppend(&confusion, " worst_confusions ");
  for (const ClassificationMetrics::Confusion& worst :
       metrics.WorstConfusions(ProgressTable::kConfusionsShown)) {
    absl::StrAppend(&confusion, confusion.back() == ' ' ? "" : ",", worst.actual, ">",
                    worst.predicted, ":", worst.count);
  }
  return confusion;
}

// With --forget=auto: the changes detected (the lines of the last few, and
// their sizes: how many times the errors grew) and the lines the model now
// remembers, for !stats.
template <class Real>
std::string Drifts(const ModelStage<Real>& model) {
  const DriftTracker<Real>* drift = model.drift();
  if (drift == nullptr) return "";
  // The last few, so that an answer stays small however long the stream.
  constexpr std::size_t kShown = 10;
  const auto& drifts = drift->drifts();
  std::string lines, sizes;
  for (std::size_t i = drifts.size() > kShown ? drifts.size() - kShown : 0; i < drifts.size(); ++i) {
    absl::StrAppend(&lines, lines.empty() ? "" : ",", drifts[i].line);
    absl::StrAppend(&sizes, sizes.empty() ? "" : ",", absl::StrFormat("%.1f", drifts[i].size));
  }
  return absl::StrCat(" drifts ", drift->drifts().size(),
                      lines.empty() ? "" : absl::StrCat(" drift_lines ", lines, " drift_sizes ", sizes),
                      " memory_lines ", drift->lines_since_restart(), " declined_alarms ",
                      drift->declined_alarms());
}

// The model's kernel width and ridge now, and how often --gamma=auto and
// --ridge=auto re-chose them as the stream grew; for !stats.
template <class Real>
std::string Settings(const ModelStage<Real>& model) {
  const BasicLearner<Real>* learner = model.learner();
  if (learner == nullptr) return "";
  std::string settings;
  if (learner->config().features.lengthscales.empty()) {
    absl::StrAppend(&settings, " gamma ", ShortestNumber(learner->config().features.gamma));
  }
  absl::StrAppend(&settings, " ridge ", ShortestNumber(learner->config().ridge));
  if (const BandwidthFollower<Real>* follower = model.bandwidth_follower()) {
    absl::StrAppend(&settings, " gamma_changes ", follower->changes().size(),
                    " standardization_changes ", follower->standardizations().size());
  }
  if (const RidgeFollower<Real>* follower = model.ridge_follower()) {
    absl::StrAppend(&settings, " ridge_changes ", follower->changes().size());
  }
  return settings;
}

}  // namespace

template <class Real>
std::string StatsAnswer(const ModelStage<Real>& model, const std::string& connections) {
  if (model.task().is_classifier()) {
    const ClassificationMetrics& metrics = model.classification();
    const std::string confusion = Confusions(metrics);
    const BasicLearner<Real>* learner = model.learner();
    const std::string updates = learner != nullptr && learner->config().loss == Loss::kHinge
                                    ? absl::StrCat(" updates ", learner->updates())
                                    : std::string();
    const WarmUpScores& window = model.warm_up();
    const std::string warm_up =
        window.classified > 0 ? absl::StrCat(" warm_up_samples ", window.classified,
                                             " warm_up_accuracy ", ShortestNumber(window.accuracy()))
                              : std::string();
    return absl::StrCat("samples ", metrics.count(), " accuracy ", ShortestNumber(metrics.accuracy()),
                        warm_up, Drifts(model), Settings(model), updates, confusion,
                        connections);
  }
  const RegressionMetrics& metrics = model.metrics();
  const RegressionMetrics& window = model.warm_up().regression;
  const std::string warm_up =
      window.count() > 0 ? absl::StrCat(" warm_up_samples ", window.count(), " warm_up_mse ",
                                        ShortestNumber(window.mean_squared_error()))
                         : std::string();
  return absl::StrCat("samples ", metrics.count(), " mse ", ShortestNumber(metrics.mean_squared_error()),
                      " mae ", ShortestNumber(metrics.mean_absolute_error()), " r2 ",
                      ShortestNumber(metrics.r_squared()), warm_up, Drifts(model), Settings(model),
                      connections);
}

template std::string StatsAnswer(const ModelStage<float>&, const std::string&);
template std::string StatsAnswer(const ModelStage<double>&, const std::string&);

}  // namespace rffstream::app
