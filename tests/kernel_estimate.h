// File: tests/kernel_estimate.h
//
// The statistical check shared by the feature-map tests: z(x)·z(y) is an
// unbiased estimate of k(x, y), so its mean over independent seeds, with its
// standard error, is compared with the closed-form kernel.
#ifndef RFFSTREAM_TESTS_KERNEL_ESTIMATE_H_
#define RFFSTREAM_TESTS_KERNEL_ESTIMATE_H_

#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>
#include <vector>

#include "rffstream/feature_map.h"

namespace rffstream::testing {

struct KernelEstimate {
  double mean = 0;
  double standard_error = 0;
};

// Averages z(x)·z(y) over the maps of `config` with seeds 1..seeds.
inline KernelEstimate EstimateKernel(FeatureMapConfig config, std::span<const double> x,
                                     std::span<const double> y, int seeds) {
  double sum = 0, sum_squares = 0;
  std::vector<double> zx(config.num_features), zy(config.num_features);
  for (int seed = 1; seed <= seeds; ++seed) {
    config.seed = static_cast<std::uint64_t>(seed);
    const absl::StatusOr<FeatureMap> map = FeatureMap::Create(config);
    if (!map.ok()) return {std::nan(""), 0};
    map->Map(x, zx);
    map->Map(y, zy);
    const double estimate = std::inner_product(zx.begin(), zx.end(), zy.begin(), 0.0);
    sum += estimate;
    sum_squares += estimate * estimate;
  }
  const double mean = sum / seeds;
  return {mean, std::sqrt(std::max(0.0, sum_squares / seeds - mean * mean) / seeds)};
}

}  // namespace rffstream::testing

#endif  // RFFSTREAM_TESTS_KERNEL_ESTIMATE_H_
