// DriftTracker's state for a checkpoint: it round-trips, it leaves out the
// lines a block holds unlearned, and the lines it keeps come back in order.
#include "rffstream/stream/drift_tracker.h"

#include <catch2/catch.hpp>
#include <limits>
#include <vector>

namespace rffstream {
namespace {

// Remembers lines `from` .. `to` - 1 of one input (t) and one target (-t).
void RememberLines(DriftTracker<double>& tracker, int from, int to) {
  for (int t = from; t < to; ++t) {
    const std::vector<double> input = {static_cast<double>(t)};
    const std::vector<double> target = {-static_cast<double>(t)};
    REQUIRE(tracker.Remember(input, target));
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
  CHECK_FALSE(tracker.Remember(huge, target));
  CHECK(tracker.State().inputs.empty());
  const std::vector<double> missing = {std::numeric_limits<double>::quiet_NaN()};
  CHECK(tracker.Remember(missing, target));  // a missing input is a line like another
}

TEST_CASE("A state of other widths is refused", "[drift]") {
  DriftTracker<double> tracker(2, 1);
  DriftTrackingState state{{{}, {}}, {1, 2, 3}, {1}, 10};
  CHECK_FALSE(tracker.Restore(state));
  state.detectors.pop_back();
  state.inputs = {1, 2};
  CHECK_FALSE(tracker.Restore(state));  // one detector, not two
}

}  // namespace
}  // namespace rffstream
