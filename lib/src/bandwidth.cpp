#include "rffstream/bandwidth.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"

namespace rffstream {

absl::StatusOr<double> MedianHeuristicGamma(std::span<const double> rows, int dimension,
                                            std::span<const double> offset,
                                            std::span<const double> scale) {
  const int count =
      std::min(kMedianHeuristicMaxRows, static_cast<int>(rows.size() / dimension));
  if (count < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "median heuristic: needs at least 2 warm-up inputs, got ", count));
  }
  std::vector<double> standardized(rows.begin(), rows.begin() + count * dimension);
  for (int i = 0; i < count; ++i) {
    for (int j = 0; j < dimension; ++j) {
      double& value = standardized[i * dimension + j];
      if (std::isnan(value)) {  // missing: the mean, 0 once standardized (as FeatureMap)
        value = 0.0;
        continue;
      }
      if (!offset.empty()) value -= offset[j];
      if (!scale.empty()) value /= scale[j];
    }
  }
  std::vector<double> distances;
  distances.reserve(static_cast<size_t>(count) * (count - 1) / 2);
  for (int a = 0; a < count; ++a) {
    for (int b = a + 1; b < count; ++b) {
      double squared = 0;
      for (int j = 0; j < dimension; ++j) {
        const double difference = standardized[a * dimension + j] - standardized[b * dimension + j];
        squared += difference * difference;
      }
      distances.push_back(squared);
    }
  }
  const auto middle = distances.begin() + distances.size() / 2;
  std::nth_element(distances.begin(), middle, distances.end());
  if (!(*middle > 0)) {
    return absl::InvalidArgumentError(
        "median heuristic: the median squared distance of the warm-up inputs is zero");
  }
  return 1.0 / *middle;
}

}  // namespace rffstream
