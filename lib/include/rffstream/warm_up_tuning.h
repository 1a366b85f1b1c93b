// File: rffstream/warm_up_tuning.h
//
// Automatic bandwidth and ridge (and, when asked, kernel) from a warm-up
// window: for each kernel asked about and a grid of
// bandwidths around the median heuristic (bandwidth.h), the window is mapped
// to random features once per bandwidth and the exact leave-one-out error of
// ridge regression is computed for a whole grid of ridges from one
// eigendecomposition (leave_one_out.h). The point with the least error
// wins, but for near-ties (within 2 %, inside the estimate's own noise) the
// one with the least error on the window's first quarter and half does: a
// stream predicts its first lines from few samples. Several outputs (targets, or a classifier's one-vs-rest outputs) get
// one choice for all, by their summed error.
//
//   rffstream::TuningRequest request;     // tune both
//   absl::StatusOr<rffstream::TuningResult> tuned =
//       rffstream::TuneOnWarmUp(config, request, inputs, targets);
//   config.features.gamma = tuned->gamma;
//   config.ridge = tuned->ridge;
#ifndef RFFSTREAM_WARM_UP_TUNING_H_
#define RFFSTREAM_WARM_UP_TUNING_H_

#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "rffstream/learner_config.h"
#include "rffstream/leave_one_out.h"

namespace rffstream {

// Which of the grid points the window cannot tell apart wins.
enum class TieBreak {
  // Within 2 % of the least error, the least error on the window's first
  // quarter and half: for a model that goes on to predict a stream's next
  // lines from few samples.
  kEarlyLines,
  // At the best bandwidth, the largest ridge within one standard error of
  // the least error: for a model fitted once on a data set (Python's fit),
  // which then predicts rows it never saw.
  kMostRegularized,
};

struct TuningRequest {
  bool tune_gamma = true;  // else config.features.gamma is kept
  bool tune_ridge = true;  // else config.ridge is kept
  // The kernels to choose among; empty keeps config.features.kernel.
  std::vector<KernelKind> kernels;
  // The features used while tuning: the config's, at most this many, and
  // at most 256 for the grid when the window has more than 512 rows. The
  // eigendecomposition costs O(min(n, D)³) per bandwidth: a short window
  // affords the model's own features; on a long one the grid is ranked with
  // fewer, which favours wide kernels (few features cannot follow a narrow
  // one), so the best bandwidth and the two above it are then evaluated again
  // with up to 512 features, and the choice is made among those.
  int max_tuning_features = 1024;
  // Squared error for regression; a classifier's one-vs-rest outputs are
  // better judged by how often the left-out row's class is missed (ties,
  // frequent on a short window, go to the smaller squared error).
  LeaveOneOutCriterion criterion = LeaveOneOutCriterion::kSquaredError;
  TieBreak tie_break = TieBreak::kEarlyLines;
};

struct TuningResult {
  KernelKind kernel = KernelKind::kGaussian;
  double gamma = 0;
  double ridge = 0;
  double error = 0;  // the leave-one-out error of the choice (TuningRequest::criterion)
  // The whole table: errors[(k · gammas.size() + g) · ridges.size() + r]
  // for kernels[k], gammas[g], ridges[r].
  std::vector<KernelKind> kernels;
  std::vector<double> gammas;
  std::vector<double> ridges;
  std::vector<double> errors;
  std::vector<double> spreads;  // the errors' standard errors, in the same order
  int features = 0;  // the features the table was computed with
  // The second look on a long window (TuningRequest::max_tuning_features):
  // refined_errors[g · ridges.size() + r] for the chosen kernel,
  // refined_gammas[g] and ridges[r], with refined_features features. Empty
  // when the table was computed with as many features as that already.
  int refined_features = 0;
  std::vector<double> refined_gammas;
  std::vector<double> refined_errors;
  std::vector<double> refined_spreads;
  int rows = 0;
};

// The bandwidth factors (times the median heuristic), the ridges and the
// kernels (for --kernel=auto) tried.
std::vector<double> TuningGammaFactors();
std::vector<double> TuningRidges();
std::vector<KernelKind> TuningKernels();

// `inputs`: n rows of config.features.input_dimension raw values (the
// config's standardization, if any, is applied as the learner would);
// `targets`: n rows of config.num_outputs. Errors: fewer than 2 rows, inputs
// without spread, non-finite numbers, an invalid config.
[[nodiscard]] absl::StatusOr<TuningResult> TuneOnWarmUp(const LearnerConfig& config,
                                                        const TuningRequest& request,
                                                        std::span<const double> inputs,
                                                        std::span<const double> targets);

}  // namespace rffstream

#endif  // RFFSTREAM_WARM_UP_TUNING_H_
