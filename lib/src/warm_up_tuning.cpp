#include "rffstream/warm_up_tuning.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "rffstream/bandwidth.h"
#include "rffstream/feature_map.h"
#include "rffstream/leave_one_out.h"

namespace rffstream {

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

  FeatureMapConfig features = config.features;
  features.num_features = std::min({features.num_features, request.max_tuning_features,
                                    rows > 512 ? 256 : request.max_tuning_features});
  if (features.map == FeatureMapKind::kPair) features.num_features -= features.num_features % 2;
  const int width = features.num_features + (config.intercept ? 1 : 0);
  std::vector<double> rows_of_features(static_cast<std::size_t>(rows) * width, 1.0);
  result.error = std::numeric_limits<double>::infinity();
  double best_squared = std::numeric_limits<double>::infinity();  // breaks ties
  // One bandwidth of one kernel: map the window once, then every ridge.
  const auto try_bandwidth = [&](KernelKind kernel, double gamma) -> absl::Status {
    features.kernel = kernel;
    features.gamma = gamma;
    // A grid point that cannot be evaluated (a bandwidth too large for the
    // sampler, a decomposition that fails) is out of the running, not the
    // end of the search.
    const auto skip = [&] {
      result.errors.insert(result.errors.end(), result.ridges.size(),
                           std::numeric_limits<double>::infinity());
      return absl::OkStatus();
    };
    absl::StatusOr<FeatureMap> map = FeatureMap::Create(features);
    if (!map.ok()) return skip();
    for (int i = 0; i < rows; ++i) {
      map->Map(inputs.subspan(static_cast<std::size_t>(i) * dimension, dimension),
               std::span<double>(rows_of_features)
                   .subspan(static_cast<std::size_t>(i) * width, features.num_features));
    }
    absl::StatusOr<std::vector<double>> errors = LeaveOneOutErrors(
        rows_of_features, rows, width, targets, outputs, result.ridges, request.criterion);
    if (!errors.ok()) return skip();
    absl::StatusOr<std::vector<double>> squared =
        request.criterion == LeaveOneOutCriterion::kSquaredError
            ? errors
            : LeaveOneOutErrors(rows_of_features, rows, width, targets, outputs, result.ridges);
    if (!squared.ok()) return skip();
    for (std::size_t r = 0; r < errors->size(); ++r) {
      result.errors.push_back((*errors)[r]);
      const bool better = (*errors)[r] < result.error ||
                          ((*errors)[r] == result.error && (*squared)[r] < best_squared);
      if (better) {
        result.error = (*errors)[r];
        best_squared = (*squared)[r];
        result.kernel = kernel;
        result.gamma = gamma;
        result.ridge = result.ridges[r];
      }
    }
    return absl::OkStatus();
  };
  for (KernelKind kernel : result.kernels) {
    for (double gamma : result.gammas) {
      if (absl::Status status = try_bandwidth(kernel, gamma); !status.ok()) return status;
    }
  }
  if (!std::isfinite(result.error)) {
    return absl::FailedPreconditionError("tuning: no grid point gave a finite error");
  }
  return result;
}

}  // namespace rffstream
