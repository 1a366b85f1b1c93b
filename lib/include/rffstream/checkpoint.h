// File: rffstream/checkpoint.h
//
// Checkpoints: everything needed to continue learning exactly where a run
// stopped — the configuration, the frequencies and phases, the RLS state, the
// counters, the task (input layout, targets, classes) and the running
// metrics — in one binary file with a CRC-32C.
//
//   absl::Status saved = rffstream::SaveCheckpoint("model.rff", learner, metrics);
//   absl::StatusOr<rffstream::Checkpoint> loaded = rffstream::LoadCheckpoint<double>("model.rff");
//   if (!loaded.ok()) return loaded.status();  // names the file and the problem
//   loaded->learner.Learn(x, y);               // bit-identical to never stopping
//
// Every number in a checkpoint is finite: saving a model that holds a NaN or
// an infinity is refused, and so is loading a file that holds one.
//
// Saving to a path is atomic: the bytes go to a temporary file in the same
// directory, which is flushed and fsync'ed, renamed over the old file, and the
// directory is fsync'ed. A crash at any moment leaves the old or the new
// checkpoint, never a broken one; the temporary a killed save leaves behind
// is deleted by the next save to the same path. Loading verifies the magic, the format
// version, the byte order, the precision and the checksum before it trusts a
// single field, and never returns a partly loaded model.
//
// Format (version kCheckpointFormatVersion, independent of the library
// version): "RFFCKPT\0", u32 format version, u32 byte-order mark 0x01020304,
// u32 bytes per real (4 or 8), the payload, and the CRC-32C of all bytes
// before it. Values are in the writing machine's byte order; a machine of the
// other order rejects the file by its byte-order mark.
#ifndef RFFSTREAM_CHECKPOINT_H_
#define RFFSTREAM_CHECKPOINT_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rffstream/change_detector.h"
#include "rffstream/classification_metrics.h"
#include "rffstream/learner.h"
#include "rffstream/regression_metrics.h"
#include "rffstream/target_range.h"
#include "rffstream/task.h"

namespace rffstream {

// 2: the RLS state records the direction of its next pass over P.
// 3: the task and the classification metrics.
// 4: the loss, the count of updates, and the metrics of every target (version 3 files are still read: the
// squared loss, every sample an update). Files of other versions are
// rejected with a message naming the versions this build reads.
// 7: the task's category (text) columns and their bucket count, whether
// it tracks drift; the metrics' warm-up part; the drift restarts.
// 8: the state of a ridge that follows the stream.
// 9: float64 models of a ridge below 1e-6 store the factor S, as float32
// ones do since 6 (older ones hold P, converted once on loading); the drift
// tracking's state.
// 10: the state of a bandwidth that follows the stream.
// 11: the standardizations it chose anew after drift restarts.
// 12: the factor form stores L (unit lower triangular) with D on its
// diagonal, P = L D Lᵀ (older files' S converted once on loading).
// 13: the phases fold the means of inputs near zero only; the others are
// centred before the projection, by the centres stored after the feature
// scale (FeatureMap::centres(); older files fold every mean: no centres).
// 14: the range of the targets learned, which answers are clipped to
// (rffstream/target_range.h; older files start an empty one).
// 15: after each RLS engine, a flag and, for one learning in bulk, its
// information factor Q and rotated targets B (rls_bulk.cpp), which learning
// goes on from: a resumed bulk run has the bits of one that never stopped.
// 16: an engine that holds Q saves it alone: its stored triangle is empty,
// and L, D are made from Q when they are needed, as in the run that saved
// it (half the size, and no inversion at each save).
// 17: the task's target offsets (Task::target_offsets), a u64 count and as
// many doubles (older files: none, targets as given), the regression
// metrics after the warm-up window (WarmUpScores::after) and a byte for
// Task::text_class_labels, before the checksum.
inline constexpr std::uint32_t kCheckpointFormatVersion = 17;
// The oldest format this build still reads (version 3: no loss, always squared).
inline constexpr std::uint32_t kOldestCheckpointFormatVersion = 3;

// The part of the metrics that a stream's warm-up window earned: the
// answers of its provisional model (none when nothing was answered so).
struct WarmUpScores {
  RegressionMetrics regression;      // of output 0, for regression
  // Output 0's answers after the window, summed apart (format 17; older
  // files: the total less `regression`): a window answered far off would
  // leave its rounding in a difference.
  RegressionMetrics after;
  std::int64_t classified = 0;       // a classifier's answers
  std::int64_t classified_right = 0;

  double accuracy() const {
    return static_cast<double>(classified_right) / static_cast<double>(classified);
  }
};

// What a checkpoint holds besides the model.
// A setting chosen again as the stream grew: at the stream's `line`, on
// `samples` samples (0: a drift restart went back to the window's).
struct SettingChange {
  std::int64_t line = 0;
  std::int64_t samples = 0;
  double from = 0;
  double to = 0;
  bool operator==(const SettingChange&) const = default;
};

// --ridge=auto's later choices (rffstream/stream/ridge_follower.h), kept so
// that a loaded model goes on choosing as it would have: what they are made
// on and when the next one comes, and the choices so far. Format 8 on;
// none (window_samples 0) when the ridge does not follow.
struct RidgeFollowState {
  std::int64_t window_samples = 0;    // the warm-up window's, 0: none
  double window_ridge = 0;            // the window's choice, which a drift restart goes back to
  std::int64_t samples = 0;           // learned since the model's start or restart
  std::int64_t next_choice = 0;       // at this many samples
  std::vector<double> target_squares;  // Σ y² of each output over those samples
  using Change = SettingChange;
  std::vector<Change> changes;
  bool operator==(const RidgeFollowState&) const = default;
};

// --forget=auto's drift tracking as it stood: its change detectors, the
// lines it would learn again after a change (oldest first, `inputs` and
// `targets` row after row) and the lines learned since its last restart.
// Format 9 on; none (no detectors) when the model does not track drift.
struct DriftTrackingState {
  std::vector<ChangeDetector::State> detectors;
  std::vector<double> inputs;
  std::vector<double> targets;
  std::int64_t lines_since_restart = 0;
  bool operator==(const DriftTrackingState&) const = default;
};

// --gamma=auto's later choices (rffstream/stream/bandwidth_follower.h): the
// window's width, the lines learned since the model's start or drift
// restart (`inputs` and `targets` row after row, as the model learned
// them) while choices are left, and the choices that changed the width. Format 10 on; none
// (no choices left, no changes) when the bandwidth does not follow.
struct BandwidthFollowState {
  int choices_left = 0;
  double window_gamma = 0;  // the window's choice, which a drift restart goes back to
  std::vector<double> inputs;
  std::vector<double> targets;
  using Change = SettingChange;
  std::vector<Change> changes;
  // The standardizations chosen anew after drift restarts (format 11 on):
  // from 1 to the largest factor by which an input's scale moved.
  std::vector<Change> standardizations;
  bool operator==(const BandwidthFollowState&) const = default;
};

struct CheckpointRecord {
  Task task;
  RegressionMetrics metrics;                // of output 0, for regression
  ClassificationMetrics classification{0};  // for a classifier task
  // Of outputs 1, 2, ... of a regression with several targets: none, or one
  // per output after the first.
  std::vector<RegressionMetrics> further_targets = {};
  WarmUpScores warm_up = {};  // a part of the metrics above
  // How often the model forgot to its prior on drift (--forget=auto): a
  // model that did no longer holds what it started from (merge's base).
  std::int64_t drift_restarts = 0;
  RidgeFollowState ridge_follow = {};
  DriftTrackingState drift_tracking = {};
  BandwidthFollowState bandwidth_follow = {};
  // A regression's learned targets (format 14 on; empty before, and for a
  // classifier).
  TargetRange target_range = {};
};

template <class Real>
struct BasicCheckpoint {
  BasicLearner<Real> learner;
  CheckpointRecord record;
};

using Checkpoint = BasicCheckpoint<double>;
using CheckpointF32 = BasicCheckpoint<float>;

// The task of a model learned with the C++ API alone: CSV lines of its
// inputs followed by one column per output.
Task DefaultTask(const LearnerConfig& config);

// The record's task must fit the learner (inputs and outputs), and its
// classification metrics the task's classes.
template <class Real>
[[nodiscard]] absl::Status SaveCheckpoint(const std::string& path,
                                          const BasicLearner<Real>& learner,
                                          const CheckpointRecord& record);

// Whether a checkpoint can be saved at `path`: its directory exists and is
// writable, and the path is a regular file or nothing (never a device, a
// directory or a pipe, which a save would otherwise rename over). For
// checking at start, before any work that the save would lose.
[[nodiscard]] absl::Status CheckCheckpointPath(const std::string& path);

// With DefaultTask().
template <class Real>
[[nodiscard]] absl::Status SaveCheckpoint(const std::string& path,
                                          const BasicLearner<Real>& learner,
                                          const RegressionMetrics& metrics);

template <class Real>
[[nodiscard]] absl::Status WriteCheckpoint(std::ostream& out, const BasicLearner<Real>& learner,
                                           const CheckpointRecord& record);

// A regression that `rffstream learn` (or serve, or Python) saved learned
// its targets less record.task.target_offsets: its learner's outputs are
// answers once AddTargetOffsets (rffstream/stream/task_outputs.h) adds them.
template <class Real>
[[nodiscard]] absl::StatusOr<BasicCheckpoint<Real>> LoadCheckpoint(const std::string& path);

// `source` names the stream in error messages.
template <class Real>
[[nodiscard]] absl::StatusOr<BasicCheckpoint<Real>> ReadCheckpoint(std::istream& in,
                                                                   std::string_view source);

// Bytes per real number (4 or 8) of the checkpoint at `path`, read from its
// header, to choose between LoadCheckpoint<float> and LoadCheckpoint<double>.
[[nodiscard]] absl::StatusOr<int> ReadCheckpointPrecision(const std::string& path);

// A classifier's class first seen in the stream, labelled `label`, added as
// if it had been declared from the start (BasicLearner::AddClass): the
// task's classes and labels (the labels so far become "0".."K-1" when the
// model had none), the confusion counts and the targets of the lines drift
// tracking remembers grow by one class.
// FailedPrecondition for a regression, a label already there, or an
// unsound model; the checkpoint then unchanged.
template <class Real>
[[nodiscard]] absl::Status AddClass(BasicCheckpoint<Real>& checkpoint, std::string label);

}  // namespace rffstream

#endif  // RFFSTREAM_CHECKPOINT_H_
