// What a checkpoint keeps beside the model round-trips: the task (columns,
// targets, classes, the warm-up's choices), every target's metrics, the
// ridge's follow state, the drift tracking state and the targets' range. A
// record that does not fit the model is refused, and a file of the format
// before a field was added loads without it.
#include "rffstream/checkpoint.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "tests/checkpoint_fixtures.h"
#include "tests/temp_dir.h"

namespace rffstream {
namespace {

using namespace rffstream::testing;

TEST_CASE("The task and the classification metrics round-trip", "[checkpoint][task]") {
  TempDir dir;
  LearnerConfig config = SmallConfig(FeatureMapKind::kPair, 1.0);
  config.num_outputs = 4;
  absl::StatusOr<LearnerF32> learner = LearnerF32::Create(config);
  REQUIRE(learner.ok());
  CheckpointRecord record;
  record.task.header = true;
  record.task.column_names = {"a", "skip", "class", "b", "c"};
  record.task.num_fields = 5;
  record.task.target_columns = {2};
  record.task.ignored_columns = {1};
  record.task.delimiter = ';';
  record.task.num_classes = 4;
  record.task.standardize_lines = 100;
  record.task.gamma_from_warm_up = true;
  record.classification = ClassificationMetrics(4);
  record.classification.Add(1, 1);
  record.classification.Add(2, 3);
  REQUIRE(SaveCheckpoint(dir.File("classes.rff"), *learner, record).ok());
  absl::StatusOr<CheckpointF32> loaded = LoadCheckpoint<float>(dir.File("classes.rff"));
  REQUIRE(loaded.ok());
  const Task& task = loaded->record.task;
  CHECK(task.header);
  CHECK(task.column_names == record.task.column_names);
  CHECK(task.num_fields == 5);
  CHECK(task.target_columns == std::vector<int>{2});
  CHECK(task.ignored_columns == std::vector<int>{1});
  CHECK(task.delimiter == ';');
  CHECK(task.num_classes == 4);
  CHECK(task.standardize_lines == 100);
  CHECK(task.gamma_from_warm_up);
  CHECK(loaded->record.classification.count() == 2);
  CHECK(loaded->record.classification.correct() == 1);
  CHECK(loaded->record.classification.confusion(3, 2) == 1);
}

TEST_CASE("Every target's metrics round-trip", "[checkpoint][task]") {
  TempDir dir;
  LearnerConfig config = SmallConfig(FeatureMapKind::kPhase, 1.0);
  config.num_outputs = 3;
  absl::StatusOr<Learner> learner = Learner::Create(config);
  REQUIRE(learner.ok());
  CheckpointRecord record{DefaultTask(config), RegressionMetrics()};
  record.metrics.Add(1.0, 2.0);
  record.further_targets.resize(2);
  record.further_targets[0].Add(3.0, 7.0);
  record.further_targets[1].Add(0.5, 0.0);
  record.further_targets[1].Add(0.5, 1.0);
  REQUIRE(SaveCheckpoint(dir.File("targets.rff"), *learner, record).ok());
  absl::StatusOr<Checkpoint> loaded = LoadCheckpoint<double>(dir.File("targets.rff"));
  REQUIRE(loaded.ok());
  REQUIRE(loaded->record.further_targets.size() == 2);
  CHECK(loaded->record.metrics.sum_squared_error() == 1.0);
  CHECK(loaded->record.further_targets[0].sum_squared_error() == 16.0);
  CHECK(loaded->record.further_targets[1].count() == 2);
  // Metrics for a number of targets the task does not have are refused.
  record.further_targets.pop_back();
  CHECK(SaveCheckpoint(dir.File("bad.rff"), *learner, record).message() ==
        dir.File("bad.rff") + ": metrics of 2 targets for a task of 3 outputs");
}

TEST_CASE("A task that does not fit the model is not saved", "[checkpoint][task][errors]") {
  TempDir dir;
  absl::StatusOr<Learner> learner = Learner::Create(SmallConfig(FeatureMapKind::kPhase, 1.0));
  REQUIRE(learner.ok());
  CheckpointRecord record{DefaultTask(learner->config()), RegressionMetrics()};
  record.task.num_classes = 5;  // five outputs, the model has one
  CHECK(SaveCheckpoint(dir.File("m.rff"), *learner, record).message() ==
        dir.File("m.rff") + ": the task has 3 inputs and 5 outputs, the model 3 and 1");
  CHECK_FALSE(std::filesystem::exists(dir.File("m.rff")));
}

TEST_CASE("The ridge's follow state round-trips, a version 7 file has none", "[checkpoint][task]") {
  FedModel fed = FeedAndSerialize(SmallConfig(FeatureMapKind::kPhase, 1.0), 60);
  CheckpointRecord record{.task = DefaultTask(fed.learner.config())};
  record.ridge_follow = {.window_samples = 256, .window_ridge = 1e-3, .samples = 1500,
                         .next_choice = 4096,
                         .target_squares = {12.5},
                         .changes = {{1024, 1024, 1e-3, 3.16e-5}}};
  std::stringstream saved;
  REQUIRE(WriteCheckpoint(saved, fed.learner, record).ok());
  absl::StatusOr<Checkpoint> loaded = ReadCheckpoint<double>(saved, "follow.rff");
  REQUIRE(loaded.ok());
  CHECK(loaded->record.ridge_follow == record.ridge_follow);

  // A sum of squares of the wrong number of outputs, or an impossible one.
  for (const std::vector<double>& squares : {std::vector<double>{1, 2}, std::vector<double>{-1}}) {
    record.ridge_follow.target_squares = squares;
    std::stringstream bad;
    REQUIRE(WriteCheckpoint(bad, fed.learner, record).ok());
    CHECK(absl::IsDataLoss(ReadCheckpoint<double>(bad, "bad.rff").status()));
  }

  absl::StatusOr<Checkpoint> old = ReadAsVersion<double>(fed.bytes, RemoveVersion8Fields, 7);
  REQUIRE(old.ok());
  CHECK(old->record.ridge_follow == RidgeFollowState());
  CHECK(old->learner.Predict(Input<double>(61)) == fed.learner.Predict(Input<double>(61)));
}


TEST_CASE("The drift tracking state round-trips, a version 8 file has none", "[checkpoint][task]") {
  FedModel fed = FeedAndSerialize(SmallConfig(FeatureMapKind::kPhase, 1.0), 60);
  CheckpointRecord record{.task = DefaultTask(fed.learner.config())};
  record.drift_tracking = {.detectors = {{0.5, 0.25, 120, 2.5}, {0.3, 0.2, 900, 0}},
                           .inputs = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6},
                           .targets = {1.5, -2.5},
                           .lines_since_restart = 5000};
  std::stringstream saved;
  REQUIRE(WriteCheckpoint(saved, fed.learner, record).ok());
  absl::StatusOr<Checkpoint> loaded = ReadCheckpoint<double>(saved, "tracking.rff");
  REQUIRE(loaded.ok());
  CHECK(loaded->record.drift_tracking == record.drift_tracking);

  // Lines of another width, targets that do not match them, a negative
  // level, fewer lines since the restart than remembered.
  std::vector<DriftTrackingState> bad(4, record.drift_tracking);
  bad[0].inputs.pop_back();
  bad[1].targets.push_back(1);
  bad[2].detectors[1].reference = -1;
  bad[3].lines_since_restart = 1;
  for (const DriftTrackingState& state : bad) {
    CheckpointRecord bad_record = record;
    bad_record.drift_tracking = state;
    std::stringstream written;
    CHECK(absl::IsInvalidArgument(WriteCheckpoint(written, fed.learner, bad_record)));
  }
  // Nor does one load: the lines since the restart, found by their value
  // (the only 5000 in the file), edited to 1 and the checksum made anew.
  std::string edited = saved.str();
  const std::int64_t lines = 5000, one = 1;
  const std::string_view pattern(reinterpret_cast<const char*>(&lines), sizeof lines);
  const std::size_t at = edited.rfind(pattern);
  REQUIRE(at != std::string::npos);
  REQUIRE(edited.find(pattern) == at);
  std::memcpy(edited.data() + at, &one, sizeof one);
  MarkAsVersion(edited, kCheckpointFormatVersion);
  std::stringstream edited_stream(edited);
  const absl::Status refused = ReadCheckpoint<double>(edited_stream, "edited.rff").status();
  CHECK(absl::IsDataLoss(refused));
  CHECK_THAT(std::string(refused.message()), Catch::Contains("a drift tracking state that learning cannot reach"));

  absl::StatusOr<Checkpoint> old = ReadAsVersion<double>(fed.bytes, RemoveVersion9Fields, 8);
  REQUIRE(old.ok());
  CHECK(old->record.drift_tracking == DriftTrackingState());
}

TEST_CASE("The targets' range round-trips, and a model of format 13 that learned has an unbounded one",
          "[checkpoint][clip]") {
  absl::StatusOr<Learner> learner = Learner::Create(SmallConfig(FeatureMapKind::kPhase, 1.0));
  REQUIRE(learner.ok());
  RegressionMetrics metrics;
  Feed(*learner, metrics, 0, 40);
  CheckpointRecord record{DefaultTask(learner->config()), metrics};
  record.target_range = TargetRange::FromBounds({-2.5}, {7.25});
  const auto read = [](const std::string& bytes) {
    std::stringstream file(bytes);
    absl::StatusOr<Checkpoint> checkpoint = ReadCheckpoint<double>(file, "m.rff");
    REQUIRE(checkpoint.ok());
    return checkpoint->record.target_range;
  };
  std::stringstream written;
  REQUIRE(WriteCheckpoint(written, *learner, record).ok());
  CHECK(read(written.str()) == record.target_range);
  // Format 13 kept no range: the targets this model learned are unknown,
  // and its answers stay as they are (not clipped to what comes next).
  std::string old = written.str();
  RemoveVersion14Fields(old);
  const TargetRange unknown = read(old);
  CHECK(unknown.unbounded());
  std::vector<double> answer{1e6};
  TargetRange grown = unknown;
  grown.Add(std::vector<double>{1.0});
  grown.Add(std::vector<double>{2.0});
  grown.Clip(answer);
  CHECK(answer[0] == 1e6);
  // Saved again, it stays unknown; a model that learned nothing starts empty.
  std::stringstream again;
  record.target_range = unknown;
  REQUIRE(WriteCheckpoint(again, *learner, record).ok());
  CHECK(read(again.str()).unbounded());
  absl::StatusOr<Learner> untrained = Learner::Create(SmallConfig(FeatureMapKind::kPhase, 1.0));
  REQUIRE(untrained.ok());
  std::stringstream fresh;
  REQUIRE(WriteCheckpoint(fresh, *untrained, CheckpointRecord{DefaultTask(untrained->config())}).ok());
  std::string fresh_old = fresh.str();
  RemoveVersion14Fields(fresh_old);
  CHECK(read(fresh_old).empty());
  CHECK_FALSE(read(fresh_old).unbounded());
}

}  // namespace
}  // namespace rffstream
