// The model stage alone, with a recording sink: each labelled line's answer
// is the learner's a-priori prediction, blocks answer as one line at a time
// does, a number too large for the model is refused and not learned, a
// classifier answers the class, and predicting leaves the model as it was.
#include "rffstream/stream/model_stage.h"

#include <cmath>
#include <string>
#include <vector>

#include "catch2/catch.hpp"

namespace rffstream {
namespace {

class Answers : public OutcomeSink {
 public:
  bool Take(const LineOutcome& outcome) override {
    kinds.push_back(outcome.kind);
    values.push_back(outcome.kind == LineOutcome::Kind::kAnswer ? outcome.values[0] : NAN);
    reasons.emplace_back(outcome.reason);
    return true;
  }
  std::vector<LineOutcome::Kind> kinds;
  std::vector<double> values;
  std::vector<std::string> reasons;
};

// Two inputs and a target (or a class) in the last column.
Task TwoInputs(int num_classes = 0) {
  Task task;
  task.num_fields = 3;
  task.target_columns = {2};
  task.num_classes = num_classes;
  return task;
}

BasicLearner<double> NewLearner(int outputs = 1) {
  LearnerConfig config;
  config.features.input_dimension = 2;
  config.features.num_features = 32;
  config.features.gamma = 0.5;
  config.ridge = 1e-2;
  config.num_outputs = outputs;
  return *BasicLearner<double>::Create(config);
}

std::vector<double> Input(int t) { return {std::sin(0.1 * t), std::cos(0.07 * t)}; }
double Target(int t) { return Input(t)[0] * Input(t)[1] + 0.5; }

// Feeds lines 1..n (each labelled) through `stage` into `sink`.
void Feed(ModelStage<double>& stage, int n, OutcomeSink& sink) {
  for (int t = 1; t <= n; ++t) {
    const std::vector<double> target = {Target(t)};
    REQUIRE(stage.Process(t, Input(t), {}, /*labelled=*/true, target, sink));
  }
  REQUIRE(stage.FlushBlock(sink));
}

TEST_CASE("Each labelled line is answered with the learner's a-priori prediction",
          "[model_stage]") {
  ModelStage<double> stage({});
  REQUIRE(stage.SetTask(TwoInputs()).ok());
  stage.Start(NewLearner());
  Answers sink;
  Feed(stage, 200, sink);
  BasicLearner<double> reference = NewLearner();
  REQUIRE(sink.values.size() == 200);
  for (int t = 1; t <= 200; ++t) {
    const double prior = reference.Learn(Input(t), Target(t));
    CHECK(sink.values[t - 1] == prior);
  }
  CHECK(stage.metrics().count() == 200);
  CHECK(stage.samples_learned() == 200);
}

TEST_CASE("A block of lines answers as the lines one at a time do", "[model_stage]") {
  ModelStage<double> single({});
  REQUIRE(single.SetTask(TwoInputs()).ok());
  single.Start(NewLearner());
  Answers one_at_a_time;
  Feed(single, 203, one_at_a_time);
  ModelStage<double> blocked({.block_size = 8});
  REQUIRE(blocked.SetTask(TwoInputs()).ok());
  blocked.Start(NewLearner());
  Answers in_blocks;
  Feed(blocked, 203, in_blocks);  // 25 blocks and 3 lines flushed at the end
  REQUIRE(in_blocks.values.size() == 203);
  for (std::size_t i = 0; i < 203; ++i) {
    CHECK(in_blocks.values[i] == Approx(one_at_a_time.values[i]).epsilon(1e-9).margin(1e-12));
  }
  CHECK(blocked.samples_learned() == 203);
}

TEST_CASE("A number too large for the model is refused and not learned", "[model_stage]") {
  ModelStage<double> stage({});
  REQUIRE(stage.SetTask(TwoInputs()).ok());
  stage.Start(NewLearner());
  Answers sink;
  Feed(stage, 10, sink);
  const std::vector<double> huge_target = {1e300};  // its squared error overflows
  REQUIRE(stage.Process(11, Input(11), {}, /*labelled=*/true, huge_target, sink));
  CHECK(sink.kinds.back() == LineOutcome::Kind::kBad);
  // The reason names the target's column (the task's third).
  CHECK(sink.reasons.back() == std::string(ModelStage<double>::kTooLarge) +
                                   ": its largest number is in column 2");
  CHECK(stage.samples_learned() == 10);
  CHECK(stage.metrics().count() == 10);
}

TEST_CASE("A classifier answers the class with the largest output", "[model_stage]") {
  ModelStage<double> stage({});
  REQUIRE(stage.SetTask(TwoInputs(/*num_classes=*/3)).ok());
  stage.Start(NewLearner(/*outputs=*/3));
  Answers sink;
  for (int t = 1; t <= 300; ++t) {
    const std::vector<double> x = Input(t);
    const std::vector<double> label = {static_cast<double>(x[0] > 0.3 ? 0 : x[1] > 0 ? 1 : 2)};
    REQUIRE(stage.Process(t, x, {}, /*labelled=*/true, label, sink));
  }
  for (const double answer : sink.values) {
    CHECK((answer == 0 || answer == 1 || answer == 2));
  }
  CHECK(stage.classification().count() == 300);
  CHECK(stage.classification().accuracy() > 0.8);
}

TEST_CASE("Predicting answers every line and leaves the model as it was", "[model_stage]") {
  ModelStage<double> stage({.learns = false});
  REQUIRE(stage.SetTask(TwoInputs()).ok());
  BasicLearner<double> trained = NewLearner();
  for (int t = 1; t <= 100; ++t) trained.Learn(Input(t), Target(t));
  stage.Start(trained);
  Answers sink;
  REQUIRE(stage.Process(1, Input(500), {}, /*labelled=*/false, {}, sink));
  const std::vector<double> target = {Target(501)};
  REQUIRE(stage.Process(2, Input(501), {}, /*labelled=*/true, target, sink));
  CHECK(sink.values[0] == trained.Predict(Input(500)));
  CHECK(sink.values[1] == trained.Predict(Input(501)));
  CHECK(stage.samples_learned() == 100);
  CHECK(stage.predicted_only() == 1);
  CHECK(stage.metrics().count() == 1);  // the labelled line is scored
}

}  // namespace
}  // namespace rffstream
