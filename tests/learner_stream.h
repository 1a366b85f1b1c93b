// File: tests/learner_stream.h
//
// A smooth nonlinear target on 5 inputs with deterministic pseudo-noise, and
// a small learner for it: the learner tests' stream and settings.
#ifndef RFFSTREAM_TESTS_LEARNER_STREAM_H_
#define RFFSTREAM_TESTS_LEARNER_STREAM_H_

#include <cmath>
#include <utility>
#include <vector>

#include "rffstream/learner.h"

namespace rffstream::testing {

struct Stream {
  std::vector<std::vector<double>> inputs;
  std::vector<double> targets;
};

inline Stream MakeStream(int samples, int dimension) {
  Stream stream;
  for (int t = 0; t < samples; ++t) {
    std::vector<double> x(dimension);
    for (int j = 0; j < dimension; ++j) x[j] = std::sin(0.37 * t * (j + 1) + j);
    double y = std::cos(x[0] + 0.5 * x[1]) + 0.3 * x[dimension - 1] * x[0];
    y += 0.01 * std::sin(12.9898 * t);
    stream.inputs.push_back(std::move(x));
    stream.targets.push_back(y);
  }
  return stream;
}

inline LearnerConfig TestConfig(FeatureMapKind map, bool intercept) {
  LearnerConfig config;
  config.features.input_dimension = 5;
  config.features.num_features = 64;
  config.features.gamma = 0.4;
  config.features.map = map;
  config.features.seed = 3;
  config.ridge = 0.05;
  config.intercept = intercept;
  return config;
}

}  // namespace rffstream::testing

#endif  // RFFSTREAM_TESTS_LEARNER_STREAM_H_
