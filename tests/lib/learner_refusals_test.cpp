// What Learner refuses and what it fills in: a huge finite input, spans of
// the wrong size (never read or written past their end, even in a release
// build), and a missing (NaN) input, learned as the input's mean.
#include "rffstream/learner.h"

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <algorithm>
#include <csignal>
#include <cmath>
#include <limits>
#include <vector>

#include "tests/learner_stream.h"

namespace rffstream {
namespace {

using testing::MakeStream;
using testing::Stream;
using testing::TestConfig;

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

TEST_CASE("Targets, priors, predictions and rows of the wrong size are refused, never written past",
          "[learner][errors]") {
  LearnerConfig config = TestConfig(FeatureMapKind::kPair, true);
  config.num_outputs = 3;
  absl::StatusOr<Learner> learner = Learner::Create(config);
  REQUIRE(learner.ok());
  const Stream stream = MakeStream(10, 5);
  const std::vector<double> x = stream.inputs[0];
  // In the child, as above: a debug build stops at the first assertion. The
  // sanitizers' build would report any read or write past a span.
  const int exit_code = ExitOfChild([&] {
    bool refused = std::isnan(learner->Learn(x, 1.0));  // one target for three outputs
    std::vector<double> eight(8, 0.0), one(1, 0.0), three_targets(3, 1.0);
    learner->PredictOutputs(x, eight);
    refused &= std::all_of(eight.begin(), eight.end(), [](double v) { return std::isnan(v); });
    refused &= !learner->LearnOutputs(x, one, one) && std::isnan(one[0]);
    refused &= !learner->LearnOutputs(x, three_targets, one) && std::isnan(one[0]);
    std::vector<double> block_inputs(15, 0.5), block_targets(9, 1.0);
    refused &= learner->LearnBlock(block_inputs, block_targets, one) == 0;
    std::vector<double> row(10, 0.0);
    learner->MapRow(x, row);
    refused &= std::all_of(row.begin(), row.end(), [](double v) { return std::isnan(v); });
    std::vector<double> z(static_cast<std::size_t>(learner->feature_map().num_features()));
    learner->feature_map().Map(std::vector<double>(3, 0.5), z);
    refused &= std::all_of(z.begin(), z.end(), [](double v) { return std::isnan(v); });
    refused &= learner->weights(7).empty() && learner->weights(-1).empty();
    return refused && learner->samples_learned() == 0;
  });
#ifdef NDEBUG
  CHECK(exit_code == 0);
#else
  CHECK(exit_code == 128 + SIGABRT);
#endif
  // The right sizes still learn.
  std::vector<double> priors(3), targets = {1.0, -1.0, 0.5};
  CHECK(learner->LearnOutputs(x, targets, priors));
  CHECK(learner->samples_learned() == 1);
}

}  // namespace
}  // namespace rffstream
