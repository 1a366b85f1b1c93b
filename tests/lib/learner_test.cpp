// Learner against independent references: a batch ridge solve and a textbook
// RLS loop on features recomputed in double with libm, a golden prediction,
// forgetting to the prior, and the validation of its settings.
#include "rffstream/learner.h"

#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

#include "Eigen/Dense"

#include "tests/learner_stream.h"

namespace rffstream {
namespace {

using testing::MakeStream;
using testing::Stream;
using testing::TestConfig;

// z(x) recomputed from the map's frequencies with std::cos/std::sin in double,
// plus the intercept's 1: the reference does not use the library's trig path.
Eigen::VectorXd ReferenceFeatures(const FeatureMap& map, const std::vector<double>& x,
                                  bool intercept) {
  const int m = map.num_frequencies();
  const int d = map.input_dimension();
  Eigen::VectorXd z(map.num_features() + (intercept ? 1 : 0));
  for (int i = 0; i < m; ++i) {
    double argument = map.offsets()[i];
    for (int j = 0; j < d; ++j) argument += map.projection()[i * d + j] * x[j];
    if (map.config().map == FeatureMapKind::kPhase) {
      z[i] = map.scale() * std::cos(argument);
    } else {
      z[i] = map.scale() * std::cos(argument);
      z[m + i] = map.scale() * std::sin(argument);
    }
  }
  if (intercept) z[map.num_features()] = 1.0;
  return z;
}

TEST_CASE("With no forgetting the weights equal batch ridge regression", "[learner]") {
  for (FeatureMapKind map : {FeatureMapKind::kPhase, FeatureMapKind::kPair}) {
    for (bool intercept : {true, false}) {
      const LearnerConfig config = TestConfig(map, intercept);
      absl::StatusOr<Learner> learner = Learner::Create(config);
      REQUIRE(learner.ok());
      const Stream stream = MakeStream(2000, 5);
      const int dimension = learner->weights().size();
      Eigen::MatrixXd gram = config.ridge * Eigen::MatrixXd::Identity(dimension, dimension);
      Eigen::VectorXd moment = Eigen::VectorXd::Zero(dimension);
      for (size_t t = 0; t < stream.targets.size(); ++t) {
        learner->Learn(stream.inputs[t], stream.targets[t]);
        const Eigen::VectorXd z = ReferenceFeatures(learner->feature_map(), stream.inputs[t], intercept);
        gram += z * z.transpose();
        moment += z * stream.targets[t];
      }
      const Eigen::VectorXd batch = gram.ldlt().solve(moment);
      const Eigen::VectorXd streamed =
          Eigen::Map<const Eigen::VectorXd>(learner->weights().data(), dimension);
      INFO("map " << FeatureMapKindName(map) << ", intercept " << intercept);
      CHECK((streamed - batch).norm() <= 1e-9 * batch.norm());
    }
  }
}

TEST_CASE("Learn returns the a-priori prediction of a textbook RLS loop", "[learner]") {
  const LearnerConfig config = TestConfig(FeatureMapKind::kPhase, true);
  absl::StatusOr<Learner> learner = Learner::Create(config);
  REQUIRE(learner.ok());
  const Stream stream = MakeStream(500, 5);
  const int dimension = learner->weights().size();
  Eigen::MatrixXd covariance = Eigen::MatrixXd::Identity(dimension, dimension) / config.ridge;
  Eigen::VectorXd weights = Eigen::VectorXd::Zero(dimension);
  for (size_t t = 0; t < stream.targets.size(); ++t) {
    const Eigen::VectorXd z = ReferenceFeatures(learner->feature_map(), stream.inputs[t], true);
    const double expected_prior = weights.dot(z);
    const Eigen::VectorXd gain = covariance * z;
    const double denominator = 1.0 + z.dot(gain);
    weights += gain * ((stream.targets[t] - expected_prior) / denominator);
    covariance -= gain * gain.transpose() / denominator;

    CHECK(learner->Predict(stream.inputs[t]) == Approx(expected_prior).margin(1e-10));
    CHECK(learner->Learn(stream.inputs[t], stream.targets[t]) == Approx(expected_prior).margin(1e-10));
  }
  CHECK(learner->samples_learned() == 500);
}

TEST_CASE("Predict does not change the model", "[learner]") {
  absl::StatusOr<Learner> learner = Learner::Create(TestConfig(FeatureMapKind::kPair, true));
  REQUIRE(learner.ok());
  const Stream stream = MakeStream(50, 5);
  for (size_t t = 0; t < 50; ++t) learner->Learn(stream.inputs[t], stream.targets[t]);
  const std::vector<double> before(learner->weights().begin(), learner->weights().end());
  const double first = learner->Predict(stream.inputs[0]);
  for (int repeat = 0; repeat < 10; ++repeat) learner->Predict(stream.inputs[repeat]);
  CHECK(learner->Predict(stream.inputs[0]) == first);
  CHECK(std::vector<double>(learner->weights().begin(), learner->weights().end()) == before);
  CHECK(learner->samples_learned() == 50);
}

TEST_CASE("A learner forgotten to its prior learns as a new one", "[learner][drift]") {
  for (const bool hinge : {false, true}) {
    LearnerConfig config = TestConfig(FeatureMapKind::kPhase, true);
    if (hinge) {
      config.loss = Loss::kHinge;
      config.num_outputs = 2;
    }
    absl::StatusOr<Learner> used = Learner::Create(config);
    absl::StatusOr<Learner> fresh = Learner::Create(config);
    REQUIRE(used.ok());
    REQUIRE(fresh.ok());
    const Stream stream = MakeStream(60, 5);
    std::vector<double> targets(static_cast<std::size_t>(config.num_outputs));
    std::vector<double> priors(targets.size()), fresh_priors(targets.size());
    const auto targets_of = [&](std::size_t t) {
      std::fill(targets.begin(), targets.end(), hinge ? -1.0 : stream.targets[t]);
      if (hinge) targets[t % 2] = 1.0;
      return std::span<const double>(targets);
    };
    for (std::size_t t = 0; t < 30; ++t) used->LearnOutputs(stream.inputs[t], targets_of(t), priors);
    // Forgotten, then the last five samples learned again: as a new learner
    // that learned those five alone, and they are not counted twice.
    std::vector<double> kept_inputs, kept_targets;
    for (std::size_t t = 25; t < 30; ++t) {
      kept_inputs.insert(kept_inputs.end(), stream.inputs[t].begin(), stream.inputs[t].end());
      const std::span<const double> targets_t = targets_of(t);
      kept_targets.insert(kept_targets.end(), targets_t.begin(), targets_t.end());
      fresh->LearnOutputs(stream.inputs[t], targets_t, fresh_priors);
    }
    used->ForgetToPrior(kept_inputs, kept_targets);
    CHECK(used->samples_learned() == 30);
    for (std::size_t t = 30; t < 60; ++t) {
      used->LearnOutputs(stream.inputs[t], targets_of(t), priors);
      fresh->LearnOutputs(stream.inputs[t], targets_of(t), fresh_priors);
      CHECK(priors == fresh_priors);
    }
    for (int k = 0; k < config.num_outputs; ++k) {
      CHECK(std::equal(used->weights(k).begin(), used->weights(k).end(),
                       fresh->weights(k).begin()));
    }
    CHECK(used->samples_learned() == 60);  // the counts go on
  }
}

TEST_CASE("Golden prediction for a fixed seed and stream", "[learner]") {
  LearnerConfig config;
  config.features.input_dimension = 3;
  config.features.num_features = 6;
  config.features.gamma = 0.5;
  config.features.seed = 7;
  config.features.map = FeatureMapKind::kPhase;
  config.ridge = 0.1;
  absl::StatusOr<Learner> learner = Learner::Create(config);
  REQUIRE(learner.ok());
  for (int t = 0; t < 20; ++t) {
    const double x[3] = {0.1 * t, -0.05 * t, std::sin(0.3 * t)};
    learner->Learn(x, std::cos(0.2 * t));
  }
  const double x[3] = {0.5, -0.5, 0.25};
  CHECK(learner->Predict(x) == Approx(0.26855920933751842).epsilon(1e-12));
}

TEST_CASE("A fitted model beats the mean on a smooth target", "[learner]") {
  absl::StatusOr<Learner> learner = Learner::Create(TestConfig(FeatureMapKind::kPhase, true));
  REQUIRE(learner.ok());
  const Stream stream = MakeStream(3000, 5);
  double late_squared_error = 0, late_variance = 0, mean = 0;
  for (size_t t = 2000; t < 3000; ++t) mean += stream.targets[t] / 1000;
  for (size_t t = 0; t < 3000; ++t) {
    const double prior = learner->Learn(stream.inputs[t], stream.targets[t]);
    if (t >= 2000) {
      late_squared_error += (stream.targets[t] - prior) * (stream.targets[t] - prior);
      late_variance += (stream.targets[t] - mean) * (stream.targets[t] - mean);
    }
  }
  CHECK(late_squared_error < 0.05 * late_variance);
}

TEST_CASE("Learner config validation names the problem", "[learner][errors]") {
  LearnerConfig config = TestConfig(FeatureMapKind::kPhase, true);
  SECTION("ridge") {
    config.ridge = 0;
    CHECK(Learner::Create(config).status().message() ==
          "learner: ridge must be in [1e-12, 1e+12], got 0");
  }
  SECTION("forgetting") {
    config.forgetting = 1.5;
    CHECK(Learner::Create(config).status().message() ==
          "learner: forgetting factor must be in (0, 1], got 1.5");
  }
  SECTION("outputs") {
    config.num_outputs = 0;
    CHECK(Learner::Create(config).status().message() ==
          "learner: num_outputs must be at least 1, got 0");
  }
  SECTION("feature map") {
    config.features.input_dimension = 0;
    CHECK(Learner::Create(config).status().message() ==
          "feature map: input_dimension must be positive, got 0");
  }
}

}  // namespace
}  // namespace rffstream
