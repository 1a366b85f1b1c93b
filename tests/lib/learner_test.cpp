#include "rffstream/learner.h"

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <cmath>
#include <limits>
#include <vector>

#include "Eigen/Dense"

namespace rffstream {
namespace {

// A smooth nonlinear target on 5 inputs, with deterministic pseudo-noise.
struct Stream {
  std::vector<std::vector<double>> inputs;
  std::vector<double> targets;
};

Stream MakeStream(int samples, int dimension) {
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

LearnerConfig TestConfig(FeatureMapKind map, bool intercept) {
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

TEST_CASE("A huge finite input is refused and leaves the model as it was", "[learner][nonfinite]") {
  // 1.5e308 overflows the projection ω·x to infinity, whose cosine is NaN.
  for (const double huge : {1.5e308, -1e308}) {
    absl::StatusOr<Learner> learner = Learner::Create(TestConfig(FeatureMapKind::kPhase, true));
    absl::StatusOr<LearnerF32> single = LearnerF32::Create(TestConfig(FeatureMapKind::kPair, true));
    REQUIRE(learner.ok());
    REQUIRE(single.ok());
    const Stream stream = MakeStream(60, 5);
    for (size_t t = 0; t < 30; ++t) {
      learner->Learn(stream.inputs[t], stream.targets[t]);
      single->Learn(stream.inputs[t], static_cast<float>(stream.targets[t]));
    }
    const std::vector<double> before(learner->weights().begin(), learner->weights().end());
    std::vector<double> bad = stream.inputs[30];
    bad[0] = huge;
    CHECK(std::isnan(learner->Learn(bad, 3.0)));
    CHECK(std::vector<double>(learner->weights().begin(), learner->weights().end()) == before);
    CHECK(learner->samples_learned() == 30);
    std::vector<double> bad_single(5, 1.0);
    bad_single[2] = 3e38;  // ω·x overflows float32
    CHECK(std::isnan(single->Learn(bad_single, 1.0f)));
    for (size_t t = 30; t < 60; ++t) {
      CHECK(std::isfinite(learner->Learn(stream.inputs[t], stream.targets[t])));
      CHECK(std::isfinite(single->Learn(stream.inputs[t], static_cast<float>(stream.targets[t]))));
    }
    CHECK(learner->samples_learned() == 60);
    CHECK(single->samples_learned() == 60);
  }
}

TEST_CASE("A missing (NaN) input is learned as the input's mean", "[learner][missing]") {
  LearnerConfig config = TestConfig(FeatureMapKind::kPhase, true);
  config.features.input_offset = {0.5, -1.0, 0.0, 2.0, 0.25};
  config.features.input_scale = {1.0, 2.0, 0.5, 1.0, 3.0};
  absl::StatusOr<Learner> with_missing = Learner::Create(config);
  absl::StatusOr<Learner> filled = Learner::Create(config);
  REQUIRE(with_missing.ok());
  REQUIRE(filled.ok());
  const Stream stream = MakeStream(80, 5);
  for (std::size_t t = 0; t < stream.inputs.size(); ++t) {
    std::vector<double> x = stream.inputs[t], mean_in = stream.inputs[t];
    const std::size_t j = t % 5;
    if (t % 2 == 0) {
      x[j] = std::numeric_limits<double>::quiet_NaN();
      mean_in[j] = config.features.input_offset[j];
    }
    const double prior = with_missing->Learn(x, stream.targets[t]);
    CHECK(std::isfinite(prior));
    CHECK(prior == filled->Learn(mean_in, stream.targets[t]));
  }
  CHECK(with_missing->samples_learned() == 80);
  CHECK(std::equal(with_missing->weights().begin(), with_missing->weights().end(),
                   filled->weights().begin()));
  // An infinite input is still refused.
  std::vector<double> infinite = stream.inputs[0];
  infinite[1] = std::numeric_limits<double>::infinity();
  CHECK(std::isnan(with_missing->Learn(infinite, 1.0)));
  CHECK(with_missing->samples_learned() == 80);
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

TEST_CASE("Several outputs equal separate learners that share the features", "[learner][outputs]") {
  for (double forgetting : {1.0, 0.98}) {
    LearnerConfig config = TestConfig(FeatureMapKind::kPhase, true);
    config.forgetting = forgetting;
    config.num_outputs = 3;
    absl::StatusOr<Learner> joint = Learner::Create(config);
    absl::StatusOr<Learner> blocked = Learner::Create(config);
    config.num_outputs = 1;
    std::vector<Learner> separate;
    for (int output = 0; output < 3; ++output) separate.push_back(*Learner::Create(config));
    REQUIRE(joint.ok());
    const Stream stream = MakeStream(600, 5);
    std::vector<double> block_inputs, block_targets;
    for (size_t t = 0; t < stream.targets.size(); ++t) {
      const double y = stream.targets[t];
      const double targets[3] = {y, -y, 2 * y + stream.inputs[t][2]};
      double priors[3];
      joint->LearnOutputs(stream.inputs[t], targets, priors);
      for (int output = 0; output < 3; ++output) {
        CHECK(priors[output] == Approx(separate[output].Learn(stream.inputs[t], targets[output])).margin(1e-12));
      }
      block_inputs.insert(block_inputs.end(), stream.inputs[t].begin(), stream.inputs[t].end());
      block_targets.insert(block_targets.end(), targets, targets + 3);
      if (block_targets.size() == 3 * 40) {  // blocks of 40 samples
        std::vector<double> block_priors(block_targets.size());
        blocked->LearnBlock(block_inputs, block_targets, block_priors);
        block_inputs.clear();
        block_targets.clear();
      }
    }
    INFO("forgetting " << forgetting);
    CHECK(blocked->samples_learned() == joint->samples_learned());  // samples, not targets
    double predictions[3];
    joint->PredictOutputs(stream.inputs[5], predictions);
    for (int output = 0; output < 3; ++output) {
      CHECK(predictions[output] == Approx(separate[output].Predict(stream.inputs[5])).margin(1e-10));
      const std::span<const double> a = joint->weights(output), b = blocked->weights(output);
      for (size_t i = 0; i < a.size(); ++i) CHECK(b[i] == Approx(a[i]).margin(1e-8));
    }
  }
}

TEST_CASE("Feature rows mapped apart give the same model as learning from inputs",
          "[learner][rows]") {
  for (bool intercept : {true, false}) {
    LearnerConfig config = TestConfig(FeatureMapKind::kPair, intercept);
    config.num_outputs = 2;
    absl::StatusOr<Learner> direct = Learner::Create(config);
    absl::StatusOr<Learner> from_rows = Learner::Create(config);
    absl::StatusOr<Learner> blocked = Learner::Create(config);
    REQUIRE(direct.ok());
    REQUIRE(from_rows->row_length() == 64 + (intercept ? 1 : 0));
    const Stream stream = MakeStream(300, 5);
    std::vector<double> row(static_cast<std::size_t>(from_rows->row_length()));
    std::vector<double> block_rows, block_targets;
    for (size_t t = 0; t < stream.targets.size(); ++t) {
      const double targets[2] = {stream.targets[t], -2 * stream.targets[t]};
      double priors[2], row_priors[2], predictions[2], row_predictions[2];
      // Mapped by a const Learner, as a reading thread does.
      static_cast<const Learner&>(*blocked).MapRow(stream.inputs[t], row);
      direct->PredictOutputs(stream.inputs[t], predictions);
      from_rows->PredictRowOutputs(row, row_predictions);
      direct->LearnOutputs(stream.inputs[t], targets, priors);
      from_rows->LearnRowOutputs(row, targets, row_priors);
      for (int output = 0; output < 2; ++output) {
        // One prediction path: the same bits from inputs and from rows, and
        // the a-priori prediction of learning is the prediction made before.
        CHECK(row_priors[output] == priors[output]);
        CHECK(row_predictions[output] == predictions[output]);
        CHECK(priors[output] == predictions[output]);
      }
      CHECK(from_rows->PredictRowWithVariance(row).variance ==
            direct->PredictWithVariance(stream.inputs[t]).variance);
      block_rows.insert(block_rows.end(), row.begin(), row.end());
      block_targets.insert(block_targets.end(), targets, targets + 2);
      if (block_targets.size() == 2 * 50) {
        std::vector<double> block_priors(block_targets.size());
        blocked->LearnRowBlock(block_rows, block_targets, block_priors);
        block_rows.clear();
        block_targets.clear();
      }
    }
    CHECK(from_rows->samples_learned() == 300);
    CHECK(blocked->samples_learned() == 300);
    for (int output = 0; output < 2; ++output) {
      const std::span<const double> a = direct->weights(output), b = from_rows->weights(output),
                                    c = blocked->weights(output);
      for (size_t i = 0; i < a.size(); ++i) {
        CHECK(b[i] == a[i]);
        CHECK(c[i] == Approx(a[i]).margin(1e-8));
      }
    }
  }
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

template <class Real>
void CheckOnePredictionPath(FeatureMapKind map, bool intercept, int num_features) {
  LearnerConfig config = TestConfig(map, intercept);
  config.features.num_features = num_features;
  config.num_outputs = 2;
  absl::StatusOr<BasicLearner<Real>> learner = BasicLearner<Real>::Create(config);
  REQUIRE(learner.ok());
  const Stream stream = MakeStream(num_features > 1000 ? 6 : 60, 5);
  std::vector<Real> row(static_cast<std::size_t>(learner->row_length()));
  for (std::size_t t = 0; t < stream.targets.size(); ++t) {
    const std::vector<double>& x = stream.inputs[t];
    Real predictions[2], row_predictions[2], priors[2];
    const Real targets[2] = {static_cast<Real>(stream.targets[t]), Real{1}};
    learner->PredictOutputs(x, predictions);
    learner->MapRow(x, row);
    learner->PredictRowOutputs(row, row_predictions);
    const Real single = learner->Predict(x);
    const Real with_variance = learner->PredictRowWithVariance(row).prediction;
    REQUIRE(learner->LearnOutputs(x, targets, priors));
    for (int output = 0; output < 2; ++output) {
      CHECK(row_predictions[output] == predictions[output]);
      CHECK(priors[output] == predictions[output]);
    }
    CHECK(single == predictions[0]);
    CHECK(with_variance == predictions[0]);
  }
}

TEST_CASE("Every prediction path gives the same bits", "[learner][predict]") {
  // Feature counts around the prediction chunk (128), with and without the
  // intercept in a chunk of its own; rows that Predict() maps whole on its
  // stack (16 KiB) and rows it maps a chunk at a time (double from D = 2048,
  // float from 4096).
  for (int num_features : {64, 128, 200, 256, 300, 2100, 4200}) {
    for (bool intercept : {true, false}) {
      for (FeatureMapKind map : {FeatureMapKind::kPhase, FeatureMapKind::kPair}) {
        INFO("D = " << num_features << ", intercept " << intercept << ", map "
                    << FeatureMapKindName(map));
        if (num_features < 4096) CheckOnePredictionPath<double>(map, intercept, num_features);
        CheckOnePredictionPath<float>(map, intercept, num_features);
      }
    }
  }
}

}  // namespace
}  // namespace rffstream

namespace rffstream {
namespace {

// Runs `body` in a child process: its exit code, or 128 + the signal that
// ended it (an assertion aborts with SIGABRT).
template <class Body>
int ExitOfChild(Body body) {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(body() ? 0 : 1);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST_CASE("An input of the wrong size is refused, never learned or read past its end") {
  absl::StatusOr<Learner> learner = Learner::Create(TestConfig(FeatureMapKind::kPhase, true));
  REQUIRE(learner.ok());
  const Stream stream = MakeStream(20, 5);
  for (int t = 0; t < 20; ++t) learner->Learn(stream.inputs[t], stream.targets[t]);
  const std::vector<double> weights_before(learner->weights().begin(), learner->weights().end());
  const std::vector<double> too_many(6, 0.5), too_few(1, 0.5);
  // In the child: what a release build of the host gets (a debug build
  // stops at the assertion first).
  const int exit_code = ExitOfChild([&] {
    const bool refused = std::isnan(learner->Learn(too_many, 1.0)) &&
                         std::isnan(learner->Predict(too_few)) &&
                         std::isnan(learner->PredictWithVariance(too_few).prediction) &&
                         learner->samples_learned() == 20;
    std::vector<double> priors(2, 0.0);
    const std::vector<double> block_targets = {1.0, 2.0};
    const bool block_refused = learner->LearnBlock(too_many, block_targets, priors) == 0 &&
                               std::isnan(priors[0]) && std::isnan(priors[1]);
    const std::vector<double> weights_after(learner->weights().begin(), learner->weights().end());
    return refused && block_refused && weights_after == weights_before;
  });
#ifdef NDEBUG
  CHECK(exit_code == 0);
#else
  CHECK(exit_code == 128 + SIGABRT);
#endif
}

}  // namespace
}  // namespace rffstream
