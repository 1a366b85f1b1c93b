#include "rffstream/warm_up_tuning.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "rffstream/bandwidth.h"
#include "rffstream/feature_map.h"
#include "rffstream/leave_one_out.h"

namespace rffstream {

namespace {

// A window longer than this is ranked with kGridFeatures features, then the
// best bandwidths are evaluated again with kRefinedFeatures (see
// TuningRequest::max_tuning_features).
constexpr int kLongWindowRows = 512;
constexpr int kGridFeatures = 256;
constexpr int kRefinedFeatures = 512;

// The leave-one-out errors of one kernel and bandwidth for every ridge, the
// window mapped to `num_features` features once. A point that cannot be
// evaluated (a bandwidth too large for the sampler, a decomposition that
// fails) gets infinite errors: it is out of the running, not the end of the
// search.
LeaveOneOutTable EvaluateBandwidth(const LearnerConfig& config, KernelKind kernel, double gamma,
                                   int num_features, std::span<const double> inputs, int rows,
                                   std::span<const double> targets,
                                   const std::vector<double>& ridges) {
  FeatureMapConfig features = config.features;
  // A leverage map's selection depends on the bandwidth: tuning ranks iid
  // features, as the selection's candidates are.
  if (features.sampler == FrequencySampler::kLeverage) {
    features.sampler = FrequencySampler::kIid;
    features.selection = {};
  }
  features.kernel = kernel;
  features.gamma = gamma;
  features.num_features = num_features - (features.map == FeatureMapKind::kPair ? num_features % 2 : 0);
  const int dimension = features.input_dimension;
  const int width = features.num_features + (config.intercept ? 1 : 0);
  absl::StatusOr<FeatureMap> map = FeatureMap::Create(features);
  absl::StatusOr<LeaveOneOutTable> table = absl::UnknownError("");
  if (map.ok()) {
    std::vector<double> rows_of_features(static_cast<std::size_t>(rows) * width, 1.0);
    for (int i = 0; i < rows; ++i) {
      map->Map(inputs.subspan(static_cast<std::size_t>(i) * dimension, dimension),
               std::span<double>(rows_of_features)
                   .subspan(static_cast<std::size_t>(i) * width, features.num_features));
    }
    table = LeaveOneOutErrors(rows_of_features, rows, width, targets, config.num_outputs, ridges);
  }
  if (table.ok()) return *std::move(table);
  const std::vector<double> unusable(ridges.size(), std::numeric_limits<double>::infinity());
  return LeaveOneOutTable{unusable, unusable};
}

// The best grid point so far: the least error by the criterion, ties (frequent
// for a classifier's error rate on a short window) to the smaller squared error.
struct Choice {
  double error = std::numeric_limits<double>::infinity();
  double squared = std::numeric_limits<double>::infinity();
  KernelKind kernel = KernelKind::kGaussian;
  double gamma = 0;
  double ridge = 0;

  bool found() const { return std::isfinite(error); }
  void Consider(const LeaveOneOutTable& row, LeaveOneOutCriterion criterion, KernelKind row_kernel,
                double row_gamma, const std::vector<double>& ridges) {
    const std::vector<double>& errors = row.by(criterion);
    for (std::size_t r = 0; r < ridges.size(); ++r) {
      if (!(errors[r] < error || (errors[r] == error && row.squared_error[r] < squared))) continue;
      error = errors[r];
      squared = row.squared_error[r];
      kernel = row_kernel;
      gamma = row_gamma;
      ridge = ridges[r];
    }
  }
};

}  // namespace

std::vector<double> TuningGammaFactors() {
  // 2^-8 .. 2^3: the best bandwidth of smooth targets sits well below the
  // median heuristic, that of rough ones above it.
  std::vector<double> factors;
  for (int power = -8; power <= 3; ++power) factors.push_back(std::ldexp(1.0, power));
  return factors;
}

std::vector<double> TuningRidges() {
  // Features have ‖z‖² ≈ 1: λ is about how many samples' worth of pull to zero.
  return {1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1, 3e-1, 1, 3, 10};
}

std::vector<KernelKind> TuningKernels() {
  return {KernelKind::kGaussian, KernelKind::kLaplacian, KernelKind::kCauchy,
          KernelKind::kMatern12, KernelKind::kMatern32, KernelKind::kMatern52};
}

absl::StatusOr<TuningResult> TuneOnWarmUp(const LearnerConfig& config, const TuningRequest& request,
                                          std::span<const double> inputs,
                                          std::span<const double> targets) {
  if (absl::Status valid = config.Validate(); !valid.ok()) return valid;
  const int dimension = config.features.input_dimension;
  const int outputs = config.num_outputs;
  const int rows = static_cast<int>(inputs.size() / static_cast<std::size_t>(dimension));
  if (inputs.size() != static_cast<std::size_t>(rows) * dimension ||
      targets.size() != static_cast<std::size_t>(rows) * outputs) {
    return absl::InvalidArgumentError(absl::StrCat("tuning: ", inputs.size(), " inputs and ",
                                                   targets.size(), " targets do not make rows of ",
                                                   dimension, " and ", outputs));
  }
  if (rows < 2) {
    return absl::FailedPreconditionError(
        absl::StrCat("tuning: needs at least 2 labelled rows, got ", rows));
  }
  TuningResult result;
  result.rows = rows;
  if (request.tune_gamma) {
    absl::StatusOr<double> median = MedianHeuristicGamma(
        inputs, dimension, config.features.input_offset, config.features.input_scale);
    if (!median.ok()) return median.status();
    for (double factor : TuningGammaFactors()) result.gammas.push_back(factor * *median);
  } else {
    result.gammas = {config.features.gamma};
  }
  result.ridges = request.tune_ridge ? TuningRidges() : std::vector<double>{config.ridge};
  result.kernels =
      request.kernels.empty() ? std::vector<KernelKind>{config.features.kernel} : request.kernels;

  const int model_features = std::min(config.features.num_features, request.max_tuning_features);
  result.features = std::min(model_features, rows > kLongWindowRows ? kGridFeatures : model_features);
  Choice best;
  for (KernelKind kernel : result.kernels) {
    for (double gamma : result.gammas) {
      const LeaveOneOutTable row = EvaluateBandwidth(config, kernel, gamma, result.features, inputs,
                                                     rows, targets, result.ridges);
      best.Consider(row, request.criterion, kernel, gamma, result.ridges);
      const std::vector<double>& errors = row.by(request.criterion);
      result.errors.insert(result.errors.end(), errors.begin(), errors.end());
    }
  }
  if (!best.found()) {
    return absl::FailedPreconditionError("tuning: no grid point gave a finite error");
  }
  const int refined_features = std::min(model_features, kRefinedFeatures);
  if (refined_features > result.features) {
    result.refined_features = refined_features;
    const KernelKind kernel = best.kernel;
    const auto at = std::find(result.gammas.begin(), result.gammas.end(), best.gamma);
    result.refined_gammas.assign(at, std::min(at + 3, result.gammas.end()));
    best = Choice();
    for (double gamma : result.refined_gammas) {
      const LeaveOneOutTable row = EvaluateBandwidth(config, kernel, gamma, refined_features,
                                                     inputs, rows, targets, result.ridges);
      best.Consider(row, request.criterion, kernel, gamma, result.ridges);
      const std::vector<double>& errors = row.by(request.criterion);
      result.refined_errors.insert(result.refined_errors.end(), errors.begin(), errors.end());
    }
    if (!best.found()) {
      return absl::FailedPreconditionError("tuning: no refined grid point gave a finite error");
    }
  }
  result.kernel = best.kernel;
  result.gamma = best.gamma;
  result.ridge = best.ridge;
  result.error = best.error;
  return result;
}

}  // namespace rffstream
