// A class first seen in the stream (BasicLearner::AddClass, AddClass of a
// checkpoint): against a learner that had the class from the start, whose
// output for it learned -1 from every earlier sample.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "rffstream/checkpoint.h"
#include "rffstream/learner.h"

namespace rffstream {
namespace {

constexpr int kInputs = 3;

// Sample t of a stream of classes 0..classes-1 (the class from the inputs,
// so that the outputs have something to learn).
std::vector<double> Input(int t) {
  return {std::sin(0.7 * t), std::cos(1.3 * t), std::sin(0.11 * t + 2)};
}
int Label(int t, int classes) {
  const std::vector<double> x = Input(t);
  return static_cast<int>(std::floor((x[0] + 1) * 0.5 * classes * 0.999)) % classes;
}

LearnerConfig Config(int outputs, double forgetting, bool intercept, Loss loss = Loss::kSquared) {
  LearnerConfig config;
  config.features.input_dimension = kInputs;
  config.features.num_features = 64;
  config.features.gamma = 0.8;
  config.ridge = 0.05;
  config.forgetting = forgetting;
  config.intercept = intercept;
  config.loss = loss;
  config.num_outputs = outputs;
  return config;
}

// Learns samples first..last-1 of a stream whose labels are 0..classes-1,
// as one-vs-rest targets of `outputs` outputs.
template <class Real>
void LearnStream(BasicLearner<Real>& learner, int first, int last, int classes, int outputs) {
  std::vector<Real> targets(static_cast<std::size_t>(outputs)), priors(targets.size());
  for (int t = first; t < last; ++t) {
    const std::vector<double> x = Input(t);
    const int label = Label(t, classes);
    for (int k = 0; k < outputs; ++k) targets[k] = k == label ? 1 : -1;
    REQUIRE(learner.LearnOutputs(x, targets, priors));
  }
}

// The largest weight difference of every output.
template <class Real>
double LargestDifference(const BasicLearner<Real>& a, const BasicLearner<Real>& b) {
  REQUIRE(a.config().num_outputs == b.config().num_outputs);
  double largest = 0;
  for (int k = 0; k < a.config().num_outputs; ++k) {
    for (std::size_t i = 0; i < a.weights(k).size(); ++i) {
      largest = std::max(largest, std::abs(static_cast<double>(a.weights(k)[i]) - b.weights(k)[i]));
    }
  }
  return largest;
}

TEST_CASE("A new class equals one declared from the start", "[new_class]") {
  // From 3 outputs to 4 (any settings), from 2 to 3 (the intercept, β = 1).
  for (const auto& [classes, forgetting] : {std::pair{3, 1.0}, std::pair{3, 0.995}, std::pair{2, 1.0}}) {
    INFO(classes << " classes, forgetting " << forgetting);
    absl::StatusOr<Learner> grown = Learner::Create(Config(classes, forgetting, true));
    absl::StatusOr<Learner> declared = Learner::Create(Config(classes + 1, forgetting, true));
    REQUIRE(grown.ok());
    REQUIRE(declared.ok());
    LearnStream(*grown, 0, 400, classes, classes);
    LearnStream(*declared, 0, 400, classes, classes + 1);
    REQUIRE(grown->AddClass().ok());
    CHECK(grown->config().num_outputs == classes + 1);
    CHECK(LargestDifference(*grown, *declared) < 1e-9);
    // And they go on together, the new class now among the labels.
    LearnStream(*grown, 400, 800, classes + 1, classes + 1);
    LearnStream(*declared, 400, 800, classes + 1, classes + 1);
    CHECK(LargestDifference(*grown, *declared) < 1e-9);
  }
}

TEST_CASE("A new class of two: close with forgetting, the prior without an intercept", "[new_class]") {
  absl::StatusOr<Learner> grown = Learner::Create(Config(2, 0.995, true));
  absl::StatusOr<Learner> declared = Learner::Create(Config(3, 0.995, true));
  REQUIRE(grown.ok());
  REQUIRE(declared.ok());
  LearnStream(*grown, 0, 400, 2, 2);
  LearnStream(*declared, 0, 400, 2, 3);
  REQUIRE(grown->AddClass().ok());
  double largest_weight = 0;
  for (double w : declared->weights(2)) largest_weight = std::max(largest_weight, std::abs(w));
  CHECK(LargestDifference(*grown, *declared) < 0.05 * largest_weight);

  absl::StatusOr<Learner> plain = Learner::Create(Config(2, 1.0, false));
  REQUIRE(plain.ok());
  LearnStream(*plain, 0, 100, 2, 2);
  REQUIRE(plain->AddClass().ok());
  for (double w : plain->weights(2)) CHECK(w == 0);
}

TEST_CASE("A new class of float32's factor form and of the hinge loss", "[new_class]") {
  absl::StatusOr<LearnerF32> grown = LearnerF32::Create(Config(2, 1.0, true));
  absl::StatusOr<Learner> declared = Learner::Create(Config(3, 1.0, true));
  REQUIRE(grown.ok());
  REQUIRE(declared.ok());
  LearnStream(*grown, 0, 400, 2, 2);
  LearnStream(*declared, 0, 400, 2, 3);
  REQUIRE(grown->AddClass().ok());
  for (std::size_t i = 0; i < declared->weights(2).size(); ++i) {
    CHECK(grown->weights(2)[i] == Approx(declared->weights(2)[i]).margin(1e-3));
  }

  // The hinge loss: a fresh engine for the class, the others untouched.
  absl::StatusOr<Learner> hinge = Learner::Create(Config(3, 1.0, true, Loss::kHinge));
  REQUIRE(hinge.ok());
  LearnStream(*hinge, 0, 200, 3, 3);
  const std::vector<double> before(hinge->weights(1).begin(), hinge->weights(1).end());
  REQUIRE(hinge->AddClass().ok());
  CHECK(std::vector<double>(hinge->weights(1).begin(), hinge->weights(1).end()) == before);
  for (double w : hinge->weights(3)) CHECK(w == 0);
  LearnStream(*hinge, 200, 400, 4, 4);
  double largest = 0;
  for (double w : hinge->weights(3)) largest = std::max(largest, std::abs(w));
  CHECK(largest > 0);  // the new class's engine learned from its samples
}

TEST_CASE("A checkpoint's new class: labels, confusion counts and refusals", "[new_class]") {
  absl::StatusOr<Learner> learner = Learner::Create(Config(2, 1.0, true));
  REQUIRE(learner.ok());
  LearnStream(*learner, 0, 50, 2, 2);
  CheckpointRecord record;
  record.task.num_fields = kInputs + 1;
  record.task.target_columns = {kInputs};
  record.task.num_classes = 2;
  REQUIRE(record.task.Validate().ok());
  record.classification = ClassificationMetrics(2, {5, 1, 2, 7});
  record.ridge_follow = {.window_samples = 20, .window_ridge = 0.05, .samples = 50,
                         .next_choice = 80, .target_squares = {50, 50}};
  record.drift_tracking = {.detectors = {{}, {}},
                           .inputs = std::vector<double>(2 * kInputs, 0.5),
                           .targets = {1, -1, -1, 1},
                           .lines_since_restart = 50};
  Checkpoint checkpoint{*learner, record};
  REQUIRE(AddClass(checkpoint, "cat").ok());
  // The lines drift tracking remembers were not cats.
  CHECK(checkpoint.record.drift_tracking.targets == std::vector<double>{1, -1, -1, -1, 1, -1});
  // The ridge's sums gain the new output's: -1 for each of the 50 samples.
  CHECK(checkpoint.record.ridge_follow.target_squares == std::vector<double>{50, 50, 50});
  CHECK(checkpoint.record.task.num_classes == 3);
  CHECK(checkpoint.record.task.class_labels == std::vector<std::string>{"0", "1", "cat"});
  CHECK(checkpoint.record.task.Validate().ok());
  CHECK(checkpoint.learner.config().num_outputs == 3);
  const ClassificationMetrics& grown = checkpoint.record.classification;
  CHECK(grown.num_classes() == 3);
  CHECK(grown.count() == 15);
  CHECK(grown.correct() == 12);
  CHECK(grown.confusion(1, 0) == 2);
  CHECK(grown.confusion(2, 2) == 0);

  CHECK(AddClass(checkpoint, "cat").message() == "class 'cat' is already a class");
  CHECK(checkpoint.record.task.num_classes == 3);
  Checkpoint regression{*learner, CheckpointRecord{.task = DefaultTask(learner->config())}};
  regression.record.task.num_classes = 0;
  CHECK(absl::IsFailedPrecondition(AddClass(regression, "x")));
  absl::StatusOr<Learner> single = Learner::Create(Config(1, 1.0, true));
  REQUIRE(single.ok());
  CHECK(single->AddClass().message() ==
        "a new class needs a classifier's outputs (2 or more), the model has 1");
}

}  // namespace
}  // namespace rffstream
