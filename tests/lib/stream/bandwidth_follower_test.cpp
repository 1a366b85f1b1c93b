// --gamma=auto's later choices (rffstream/stream/bandwidth_follower.h): a
// kernel too narrow for a grown model is widened, and the rebuilt model is
// the one a fresh learner of the new width and ridge learns from the same
// lines (recursive least squares equals batch ridge); after a drift restart
// an input whose spread changed is standardized anew; the follower's state
// round-trips through a checkpoint, and files of format 9 have none.
#include "rffstream/stream/bandwidth_follower.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <vector>

#include "tests/checkpoint_fixtures.h"

namespace rffstream {
namespace {

using namespace rffstream::testing;

// Friedman #1 with 8 inputs (noise uniform on ±0.5), one line a call.
class Friedman {
 public:
  double Next(std::vector<double>& x) {
    for (double& value : x) value = Uniform();
    return 10 * std::sin(M_PI * x[0] * x[1]) + 20 * (x[2] - 0.5) * (x[2] - 0.5) + 10 * x[3] +
           5 * x[4] + (Uniform() - 0.5);
  }

 private:
  double Uniform() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state_ >> 11) * 0x1.0p-53;
  }
  std::uint64_t state_ = 77;
};

// `count` lines of `stream`, input 3 multiplied by `widened`, learned by
// `learner` and kept by `follower`, and appended to `lines` and `targets`.
void Feed(Friedman& stream, int count, double widened, Learner& learner,
          BandwidthFollower<double>& follower, std::vector<std::vector<double>>& lines,
          std::vector<double>& targets) {
  std::vector<double> x(8);
  for (int t = 0; t < count; ++t) {
    const double y = stream.Next(x);
    x[3] *= widened;
    (void)learner.Learn(x, y);
    follower.Learned(x, std::span<const double>(&y, 1));
    lines.push_back(x);
    targets.push_back(y);
  }
}

LearnerConfig NarrowKernel() {
  LearnerConfig config;
  config.features.input_dimension = 8;
  config.features.num_features = 128;
  config.features.gamma = 1.0;  // far too narrow for inputs in [0, 1]⁸ and 1024 lines
  config.features.seed = 5;
  config.ridge = 1e-3;
  return config;
}

TEST_CASE("A kernel too narrow is widened, and the model rebuilt exactly", "[bandwidth_follower]") {
  absl::StatusOr<Learner> learner = Learner::Create(NarrowKernel());
  REQUIRE(learner.ok());
  BandwidthFollower<double> follower(learner->config());
  follower.WindowEnded(256, 1.0);
  Friedman stream;
  std::vector<double> x(8);
  std::vector<std::vector<double>> lines;
  std::vector<double> targets;
  Feed(stream, 1024, /*widened=*/1, *learner, follower, lines, targets);
  std::optional<Learner> rebuilt = follower.MaybeRechoose(1024, *learner);
  REQUIRE(rebuilt.has_value());
  REQUIRE(follower.changes().size() == 1);
  const BandwidthFollowState::Change& change = follower.changes().front();
  CHECK(change.line == 1024);
  CHECK(change.samples == 1024);
  CHECK(change.from == 1.0);
  CHECK(change.to < 1.0);
  CHECK(rebuilt->config().features.gamma == change.to);
  CHECK(rebuilt->samples_learned() == 1024);
  CHECK(rebuilt->updates() == learner->updates());
  // The reference: a fresh learner of the chosen width and ridge, learning
  // the same lines one at a time.
  absl::StatusOr<Learner> reference = Learner::Create(rebuilt->config());
  REQUIRE(reference.ok());
  for (std::size_t t = 0; t < lines.size(); ++t) (void)reference->Learn(lines[t], targets[t]);
  double largest = 0;
  for (int t = 0; t < 200; ++t) {
    (void)stream.Next(x);
    CHECK(rebuilt->Predict(x) == Approx(reference->Predict(x)).epsilon(1e-9).margin(1e-9));
    largest = std::max(largest, std::abs(reference->Predict(x)));
  }
  CHECK(largest > 1);  // the check above compared real predictions
  // The width that won predicts new lines better than the narrow one.
  double narrow_error = 0, wide_error = 0;
  for (int t = 0; t < 500; ++t) {
    const double y = stream.Next(x);
    narrow_error += std::pow(learner->Predict(x) - y, 2);
    wide_error += std::pow(rebuilt->Predict(x) - y, 2);
  }
  CHECK(wide_error < 0.8 * narrow_error);
  // One choice is left: the lines are still kept; after it, no more.
  CHECK(follower.state().choices_left == 1);
  CHECK(follower.state().inputs.size() == 1024 * 8);
  (void)follower.MaybeRechoose(1500, *rebuilt);
  CHECK(follower.state().choices_left == 0);
  CHECK(follower.state().inputs.empty());
  follower.Learned(x, std::span<const double>(targets.data(), 1));
  CHECK(follower.state().inputs.empty());
}

TEST_CASE("A stream too wide to keep does not follow, and a restart goes back to the window's width",
          "[bandwidth_follower]") {
  LearnerConfig config = NarrowKernel();
  absl::StatusOr<LearnerF32> window_model = LearnerF32::Create(config);
  REQUIRE(window_model.ok());
  BandwidthFollower<float> follower(config);
  const std::vector<double> x(8, 0.5);
  const float y = 1;
  follower.Learned(x, std::span<const float>(&y, 1));
  // 16 windows of 10⁵ lines of 8 inputs are past kMostInputValues.
  follower.WindowEnded(100000, 1.0);
  CHECK(follower.state().choices_left == 0);
  CHECK(follower.state().inputs.empty());
  std::vector<double> relearned(3 * 8);
  std::vector<float> relearned_targets = {2.0f, -1.0f, 0.5f};
  for (std::size_t i = 0; i < relearned.size(); ++i) relearned[i] = 0.1 * static_cast<double>(i % 7);
  CHECK(!follower.Restarted(500, *window_model, relearned, relearned_targets).has_value());
  CHECK(follower.state().inputs.empty());
  // Nor does a model loaded from a file of format 9 (no state): a restart
  // does not start it.
  BandwidthFollower<float> loaded(config, BandwidthFollowState());
  loaded.WindowEnded(256, loaded.state().window_gamma);
  CHECK(!loaded.Restarted(500, *window_model, relearned, relearned_targets).has_value());
  CHECK(!loaded.keeps_lines());

  // A model that had grown a wider kernel goes back to the window's, with
  // the lines learned again, as a fresh model of that width learns them.
  config.features.gamma = 0.125;
  absl::StatusOr<LearnerF32> grown = LearnerF32::Create(config);
  REQUIRE(grown.ok());
  BandwidthFollower<float> narrow(config);
  narrow.WindowEnded(256, 1.0);
  std::optional<LearnerF32> restarted =
      narrow.Restarted(500, *grown, relearned, relearned_targets);
  CHECK(narrow.state().choices_left == BandwidthFollower<float>::kChoices);
  CHECK(narrow.state().inputs.size() == relearned.size());
  CHECK(narrow.state().targets.size() == 3);
  REQUIRE(restarted.has_value());
  CHECK(restarted->config().features.gamma == 1.0);
  REQUIRE(narrow.changes().size() == 1);
  CHECK(narrow.changes()[0] == SettingChange{500, 0, 0.125, 1.0});
  for (std::size_t line = 0; line < 3; ++line) {
    (void)window_model->Learn(std::span<const double>(relearned).subspan(line * 8, 8),
                              relearned_targets[line]);
  }
  const std::vector<double> probe(8, 0.3);
  CHECK(restarted->Predict(probe) == Approx(window_model->Predict(probe)).epsilon(1e-4));
  CHECK(std::abs(window_model->Predict(probe)) > 0.01);
}

TEST_CASE("Choices that do not come in time stop the follower, its lines bounded",
          "[bandwidth_follower]") {
  // Data-parallel ranks choose at the merges: with none before the end, a
  // rank would keep the whole stream. Past a few times the last choice's
  // lines it keeps none, and at the next choice (summed over the ranks)
  // the follower stops.
  absl::StatusOr<Learner> learner = Learner::Create(NarrowKernel());
  REQUIRE(learner.ok());
  BandwidthFollower<double> follower(learner->config());
  follower.WindowEnded(256, 1.0);  // the last choice at 16 × 256 = 4096 lines
  Friedman stream;
  std::vector<std::vector<double>> lines;
  std::vector<double> targets;
  const int most = BandwidthFollower<double>::kLateChoiceLines * 4096;
  Feed(stream, most, /*widened=*/1, *learner, follower, lines, targets);
  CHECK(follower.keeps_lines());
  CHECK(follower.state().inputs.size() == static_cast<std::size_t>(most) * 8);
  Feed(stream, 1, /*widened=*/1, *learner, follower, lines, targets);
  CHECK(!follower.keeps_lines());
  CHECK(follower.state().inputs.empty());
  CHECK(!follower.MaybeRechoose(most + 1, *learner).has_value());
  CHECK(follower.state().choices_left == 0);
  CHECK(follower.changes().empty());
}

TEST_CASE("After a drift restart, an input whose spread changed is standardized anew",
          "[bandwidth_follower]") {
  // The window standardized 8 inputs uniform on [0, 1]; after the restart
  // input 3 (a relevant one) comes 20 times wider, the same function of it.
  LearnerConfig config = NarrowKernel();
  config.features.input_offset.assign(8, 0.5);
  config.features.input_scale.assign(8, std::sqrt(1.0 / 12));
  config.features.gamma = 0.05;
  absl::StatusOr<Learner> learner = Learner::Create(config);
  REQUIRE(learner.ok());
  BandwidthFollower<double> follower(learner->config());
  follower.WindowEnded(256, config.features.gamma);
  Friedman stream;
  std::vector<double> x(8);
  std::vector<std::vector<double>> lines;
  std::vector<double> targets;
  Feed(stream, 1024, /*widened=*/20, *learner, follower, lines, targets);
  BandwidthFollower<double> not_after_a_restart = follower;
  std::optional<Learner> rebuilt = follower.MaybeRechoose(5000, *learner, nullptr, true);
  REQUIRE(rebuilt.has_value());
  REQUIRE(follower.standardizations().size() == 1);
  const SettingChange& change = follower.standardizations().front();
  CHECK(change.line == 5000);
  CHECK(change.samples == 1024);
  CHECK(change.from == 1.0);
  CHECK(change.to == Approx(20).epsilon(0.1));
  const std::vector<double>& scales = rebuilt->config().features.input_scale;
  CHECK(scales[3] / config.features.input_scale[3] == Approx(20).epsilon(0.1));
  CHECK(scales[0] / config.features.input_scale[0] == Approx(1).epsilon(0.1));
  CHECK(rebuilt->config().features.input_offset[3] == Approx(10).epsilon(0.1));
  // Exactly the model a fresh learner of the new standardization, width
  // and ridge learns from the same lines.
  absl::StatusOr<Learner> reference = Learner::Create(rebuilt->config());
  REQUIRE(reference.ok());
  for (std::size_t t = 0; t < lines.size(); ++t) (void)reference->Learn(lines[t], targets[t]);
  double kept_error = 0, new_error = 0;
  for (int t = 0; t < 300; ++t) {
    const double y = stream.Next(x);
    x[3] *= 20;
    CHECK(rebuilt->Predict(x) == Approx(reference->Predict(x)).epsilon(1e-8).margin(1e-9));
    kept_error += std::pow(learner->Predict(x) - y, 2);
    new_error += std::pow(rebuilt->Predict(x) - y, 2);
  }
  CHECK(new_error < 0.8 * kept_error);
  // Not after a restart: the standardization stays the window's.
  std::optional<Learner> widened = not_after_a_restart.MaybeRechoose(5000, *learner);
  CHECK(not_after_a_restart.standardizations().empty());
  if (widened.has_value()) CHECK(widened->config().features.input_scale == config.features.input_scale);
}

TEST_CASE("The bandwidth's follow state round-trips, a version 9 file has none, a version 10 file no standardizations",
          "[checkpoint][bandwidth_follower]") {
  FedModel fed = FeedAndSerialize(SmallConfig(FeatureMapKind::kPhase, 1.0), 60);
  CheckpointRecord record{.task = DefaultTask(fed.learner.config())};
  record.bandwidth_follow.choices_left = 1;
  record.bandwidth_follow.window_gamma = 0.5;
  record.bandwidth_follow.inputs = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
  record.bandwidth_follow.targets = {1.5, -2.5};
  record.bandwidth_follow.changes = {{1024, 1024, 0.5, 0.125}};
  record.bandwidth_follow.standardizations = {{5000, 1024, 1.0, 12.5}};
  std::stringstream saved;
  REQUIRE(WriteCheckpoint(saved, fed.learner, record).ok());
  absl::StatusOr<Checkpoint> loaded = ReadCheckpoint<double>(saved, "follow.rff");
  REQUIRE(loaded.ok());
  CHECK(loaded->record.bandwidth_follow == record.bandwidth_follow);

  // Lines of another width, a NaN kept, lines kept with no choice left, a
  // width that is not positive, a window's width that is not finite.
  // A standardization that moved a scale by less than 1 or by infinity.
  std::vector<BandwidthFollowState> bad(7, record.bandwidth_follow);
  bad[0].inputs.pop_back();
  bad[1].inputs[2] = std::nan("");
  bad[2].choices_left = 0;
  bad[3].changes[0].to = 0;
  bad[4].window_gamma = std::numeric_limits<double>::infinity();
  bad[5].standardizations[0].to = 0.5;
  bad[6].standardizations[0].to = std::numeric_limits<double>::infinity();
  for (const BandwidthFollowState& state : bad) {
    CheckpointRecord bad_record = record;
    bad_record.bandwidth_follow = state;
    std::stringstream written;
    CHECK(absl::IsInvalidArgument(WriteCheckpoint(written, fed.learner, bad_record)));
  }

  absl::StatusOr<Checkpoint> before_11 = ReadAsVersion<double>(fed.bytes, RemoveVersion11Fields, 10);
  REQUIRE(before_11.ok());
  CHECK(before_11->record.bandwidth_follow.standardizations.empty());

  absl::StatusOr<Checkpoint> old = ReadAsVersion<double>(fed.bytes, RemoveVersion10Fields, 9);
  REQUIRE(old.ok());
  CHECK(old->record.bandwidth_follow == BandwidthFollowState());
  CHECK(old->learner.Predict(Input<double>(61)) == fed.learner.Predict(Input<double>(61)));
}

}  // namespace
}  // namespace rffstream
