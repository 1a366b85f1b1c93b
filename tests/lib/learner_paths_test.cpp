// Learner's other ways in and out agree with the plain one: several outputs
// with separate learners, feature rows mapped apart with inputs, blocks with
// one sample at a time, and every prediction path with the same bits.
#include "rffstream/learner.h"

#include <catch2/catch.hpp>
#include <cstddef>
#include <span>
#include <vector>

#include "tests/learner_stream.h"

namespace rffstream {
namespace {

using testing::MakeStream;
using testing::Stream;
using testing::TestConfig;

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
