// Embedding rffstream: learn a stream held in memory, one sample at a time,
// and watch the progressive-validation error fall.
#include <cmath>
#include <cstdio>
#include <vector>

#include <rffstream/rffstream.h>

int main() {
  rffstream::LearnerConfig config;
  config.features.input_dimension = 2;
  config.features.num_features = 256;
  config.features.gamma = 0.5;
  config.ridge = 1e-3;
  absl::StatusOr<rffstream::Learner> learner = rffstream::Learner::Create(config);
  if (!learner.ok()) {
    std::fprintf(stderr, "%s\n", learner.status().ToString().c_str());
    return 1;
  }

  rffstream::RegressionMetrics metrics;
  std::vector<double> x(2);
  for (int t = 0; t < 5000; ++t) {
    x[0] = std::sin(0.01 * t);
    x[1] = std::cos(0.037 * t);
    const double y = std::sin(3 * x[0]) * x[1];
    metrics.Add(learner->Learn(x, y), y);  // the prediction made before learning
  }
  const double query[2] = {0.5, -0.25};
  std::printf("progressive rmse %.4f, prediction %.4f (true %.4f)\n",
              metrics.root_mean_squared_error(), learner->Predict(query),
              std::sin(1.5) * -0.25);
  return 0;
}
