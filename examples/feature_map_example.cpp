// The feature map alone: random Fourier features written into a buffer the
// caller owns, to feed a model of your own. z(x)·z(y) approximates the kernel.
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

#include <rffstream/rffstream.h>

int main() {
  rffstream::FeatureMapConfig config;
  config.input_dimension = 3;
  config.num_features = 4096;
  config.gamma = 0.5;
  absl::StatusOr<rffstream::FeatureMap> map = rffstream::FeatureMap::Create(config);
  if (!map.ok()) {
    std::fprintf(stderr, "%s\n", map.status().ToString().c_str());
    return 1;
  }

  std::vector<double> zx(map->num_features()), zy(map->num_features());  // caller-owned
  const double x[3] = {0.1, -0.4, 0.8};
  const double y[3] = {0.3, 0.2, 0.5};
  map->Map(x, zx);  // no allocation
  map->Map(y, zy);
  const double approximation = std::inner_product(zx.begin(), zx.end(), zy.begin(), 0.0);
  const double exact = std::exp(-0.5 * (0.04 + 0.36 + 0.09));
  std::printf("z(x).z(y) = %.3f, exp(-gamma |x-y|^2) = %.3f\n", approximation, exact);
  return 0;
}
