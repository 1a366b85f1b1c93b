// DriftTracker's state for a checkpoint: it round-trips, it leaves out the
// lines a block holds unlearned, and the lines it keeps come back in order;
// a restart for a change another rank saw starts the detectors over; an
// alarm is tested: declined when a model learned anew would do far worse,
// else the model relearns the lines since the errors rose, and only those.
#include "rffstream/stream/drift_tracker.h"

#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <span>
#include <limits>
#include <utility>
#include <vector>

#include "internal/checkpoint_record.h"
#include "rffstream/learner.h"

namespace rffstream {
namespace {

// Remembers lines `from` .. `to` - 1 of one input (t) and one target (-t).
void RememberLines(DriftTracker<double>& tracker, int from, int to) {
  for (int t = from; t < to; ++t) {
    const std::vector<double> input = {static_cast<double>(t)};
    const std::vector<double> target = {-static_cast<double>(t)};
    REQUIRE(tracker.Remember(t, input, target));
  }
}

TEST_CASE("The drift tracker's state round-trips, oldest line first", "[drift]") {
  DriftTracker<double> tracker(1, 1);
  RememberLines(tracker, 0, 100);  // the ring keeps the last 64: 36 .. 99
  const DriftTrackingState state = tracker.State();
  REQUIRE(state.inputs.size() == DriftTracker<double>::kRelearnedLines);
  CHECK(state.inputs.front() == 36);
  CHECK(state.inputs.back() == 99);
  CHECK(state.targets.back() == -99);
  CHECK(state.lines_since_restart == 100);
  DriftTracker<double> restored(1, 1);
  REQUIRE(restored.Restore(state));
  CHECK(restored.State() == state);
  // New lines go on from there as they would have.
  RememberLines(tracker, 100, 110);
  RememberLines(restored, 100, 110);
  CHECK(restored.State() == tracker.State());
}

TEST_CASE("The lines a block holds unlearned are left out of the state", "[drift]") {
  DriftTracker<double> tracker(1, 1);
  RememberLines(tracker, 0, 70);
  const DriftTrackingState state = tracker.State(/*unlearned=*/5);
  REQUIRE(state.inputs.size() == DriftTracker<double>::kRelearnedLines - 5);
  CHECK(state.inputs.back() == 64);
  CHECK(state.lines_since_restart == 65);
  // Resumed from it, the same five lines come again: the same ring.
  DriftTracker<double> resumed(1, 1);
  REQUIRE(resumed.Restore(state));
  RememberLines(resumed, 65, 70);
  CHECK(resumed.State() == tracker.State());
}

TEST_CASE("A line too large for the precision is not remembered", "[drift]") {
  DriftTracker<float> tracker(1, 1);
  const std::vector<double> huge = {1e39};
  const std::vector<float> target = {1};
  CHECK_FALSE(tracker.Remember(1, huge, target));
  CHECK(tracker.State().inputs.empty());
  const std::vector<double> missing = {std::numeric_limits<double>::quiet_NaN()};
  CHECK(tracker.Remember(2, missing, target));  // a missing input is a line like another
}

TEST_CASE("A state of other widths is refused", "[drift]") {
  DriftTracker<double> tracker(2, 1);
  DriftTrackingState state{{{}, {}}, {1, 2, 3}, {1}, 10};
  CHECK_FALSE(tracker.Restore(state));
  state.detectors.pop_back();
  state.inputs = {1, 2};
  CHECK_FALSE(tracker.Restore(state));  // one detector, not two
}

TEST_CASE("A restart for another rank's change starts the detectors over", "[drift]") {
  LearnerConfig config;
  config.features.input_dimension = 1;
  config.features.num_features = 8;
  absl::StatusOr<BasicLearner<double>> learner = BasicLearner<double>::Create(config);
  REQUIRE(learner.ok());
  // Errors of 0.1 for a long time, then of 1 from line 3000 on: one tracker
  // restarts as another rank's change asks (at line 3001), the other only
  // learns its lines again, its detectors still on the old level.
  DriftTracker<double> rearmed(1, 1), not_rearmed(1, 1);
  const std::vector<double> target = {0.0};
  std::vector<double> prior = {0.1};
  std::pair<int, int> first_alarm = {0, 0};
  for (int line = 1; line <= 4000; ++line) {
    if (line == 3000) prior[0] = 1.0;
    if (line == 3001) {
      rearmed.RestartOnChangeSeenElsewhere(*learner);
      not_rearmed.Restart(*learner);
    }
    if (rearmed.Observe(line, target, prior) && first_alarm.first == 0) first_alarm.first = line;
    if (not_rearmed.Observe(line, target, prior) && first_alarm.second == 0) first_alarm.second = line;
  }
  CHECK(first_alarm.first == 0);   // it learned the new level from the start
  CHECK(first_alarm.second > 3000);  // it saw the change again, later
  CHECK(rearmed.drifts().empty());  // the change was another's
}

// A learner of y = f(x) on one input, as ModelStage drives the tracker: each
// line remembered, learned, observed; an alarm tested at once.
struct TrackedStream {
  BasicLearner<double> learner;
  DriftTracker<double> tracker{1, 1};
  int line = 0;
  std::vector<int> restarts;

  static BasicLearner<double> NewLearner() {
    LearnerConfig config;
    config.features.input_dimension = 1;
    config.features.num_features = 64;
    config.features.gamma = 1;
    config.ridge = 1e-3;
    return *BasicLearner<double>::Create(config);
  }
  void Learn(double x, double y) {
    ++line;
    const std::vector<double> input = {x}, target = {y};
    REQUIRE(tracker.Remember(line, input, target));
    const std::vector<double> prior = {learner.Learn(input, y)};
    if (tracker.Observe(line, target, prior) && tracker.Restart(learner)) restarts.push_back(line);
  }
};

double Wave(int t) { return std::sin(0.37 * t) * 2; }

TEST_CASE("An alarm that a model learned anew would make far worse is declined", "[drift]") {
  // Small errors for a long time, then 60 lines of noise 0.1: the errors
  // rise far past the alarm's threshold, but the function is the same,
  // which a model learned anew on 60 lines knows far less well.
  TrackedStream stream{TrackedStream::NewLearner()};
  for (int t = 0; t < 3000; ++t) stream.Learn(Wave(t), std::sin(Wave(t)) + 1e-3 * std::cos(7.1 * t));
  const std::vector<double> before(stream.learner.weights().begin(), stream.learner.weights().end());
  for (int t = 3000; t < 3060; ++t) stream.Learn(Wave(t), std::sin(Wave(t)) + 0.1 * std::cos(7.1 * t));
  CHECK(stream.tracker.declined_alarms() >= 1);
  CHECK(stream.restarts.empty());
  CHECK(stream.tracker.drifts().empty());
  CHECK(stream.learner.samples_learned() == 3060);  // learned on, never restarted
  CHECK(stream.tracker.lines_since_restart() == 3060);
  CHECK(before.size() == stream.learner.weights().size());
}

TEST_CASE("A change is followed by relearning the lines since the errors rose, only those",
          "[drift]") {
  // The same function, then 5 higher from line 3001 on.
  TrackedStream stream{TrackedStream::NewLearner()};
  for (int t = 0; t < 3000; ++t) stream.Learn(Wave(t), std::sin(Wave(t)) + 1e-3 * std::cos(7.1 * t));
  int t = 3000;
  while (t < 3200 && stream.restarts.empty()) stream.Learn(Wave(t), std::sin(Wave(t)) + 5), ++t;
  // Its state can be saved right after the restart: the ring holds only the
  // model's lines (a checkpoint refuses a state that learning cannot reach).
  Task task;
  task.num_fields = 2;
  task.target_columns = {1};
  CHECK(internal::CheckDriftTrackingState(stream.tracker.State(), task).ok());
  for (; t < 3200; ++t) stream.Learn(Wave(t), std::sin(Wave(t)) + 5);
  REQUIRE(stream.restarts.size() == 1);
  CHECK(stream.tracker.declined_alarms() == 0);
  const int alarm = stream.restarts.front();
  CHECK(alarm > 3000);
  CHECK(alarm < 3000 + DriftTracker<double>::kRelearnedLines);
  // Every line learned again is of the new level: none from before it.
  const std::span<const double> relearned = stream.tracker.relearned_targets();
  CHECK(static_cast<int>(relearned.size()) == alarm - 3000);
  CHECK(std::all_of(relearned.begin(), relearned.end(), [](double y) { return y > 3; }));
  // And the model predicts the new level from there on.
  const std::vector<double> x = {Wave(3300)};
  CHECK(std::abs(stream.learner.Predict(x) - (std::sin(Wave(3300)) + 5)) < 0.1);
}

}  // namespace
}  // namespace rffstream
