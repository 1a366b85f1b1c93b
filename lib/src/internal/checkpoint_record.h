// File: internal/checkpoint_record.h
//
// The parts of a checkpoint beside the learner: the task (the input's
// layout and the settings the data decided) and the regression metrics,
// written and read back with every count and name bounded by what the rest
// of the file can hold.
#ifndef RFFSTREAM_INTERNAL_CHECKPOINT_RECORD_H_
#define RFFSTREAM_INTERNAL_CHECKPOINT_RECORD_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "internal/byte_buffer.h"
#include "rffstream/checkpoint.h"
#include "rffstream/learner_config.h"
#include "rffstream/regression_metrics.h"
#include "rffstream/target_range.h"
#include "rffstream/task.h"

namespace rffstream::internal {

void WriteTask(ByteWriter& writer, const Task& task);
// `version`: the file's format (the category columns came with 7).
[[nodiscard]] absl::StatusOr<Task> ReadTask(ByteReader& reader, std::uint32_t version);
// Version 5 on: the classes' labels, none or one per class, distinct.
[[nodiscard]] absl::Status ReadClassLabels(ByteReader& reader, Task& task);
// The task must describe the model's inputs and outputs.
[[nodiscard]] absl::Status CheckTaskFitsModel(const Task& task, const LearnerConfig& config);

void WriteRegressionMetrics(ByteWriter& writer, const RegressionMetrics& metrics);
[[nodiscard]] absl::StatusOr<RegressionMetrics> ReadRegressionMetrics(ByteReader& reader);

// The choices of a setting that follows the stream (ridge, bandwidth).
void WriteSettingChanges(ByteWriter& writer, const std::vector<SettingChange>& changes);
[[nodiscard]] absl::Status ReadSettingChanges(ByteReader& reader, const std::string& setting,
                                              std::vector<SettingChange>& changes);

// Version 8 on; checked against the task's `num_outputs`.
void WriteRidgeFollowState(ByteWriter& writer, const RidgeFollowState& state);
[[nodiscard]] absl::StatusOr<RidgeFollowState> ReadRidgeFollowState(ByteReader& reader,
                                                                   int num_outputs);

// Version 9 on; its lines checked against the task's inputs and outputs
// (CheckDriftTrackingState: InvalidArgument when learning cannot reach it).
[[nodiscard]] absl::Status CheckDriftTrackingState(const DriftTrackingState& state, const Task& task);
void WriteDriftTrackingState(ByteWriter& writer, const DriftTrackingState& state);
[[nodiscard]] absl::StatusOr<DriftTrackingState> ReadDriftTrackingState(ByteReader& reader,
                                                                       const Task& task);

// Version 10 on; likewise (CheckBandwidthFollowState).
[[nodiscard]] absl::Status CheckBandwidthFollowState(const BandwidthFollowState& state,
                                                     const Task& task);
void WriteBandwidthFollowState(ByteWriter& writer, const BandwidthFollowState& state);
// `version`: the file's format (the standardizations from 11 on).
[[nodiscard]] absl::StatusOr<BandwidthFollowState> ReadBandwidthFollowState(ByteReader& reader,
                                                                            std::uint32_t version,
                                                                            const Task& task);

// Version 14 on: the targets' range, checked against the task's regression
// outputs (none for a classifier).
void WriteTargetRange(ByteWriter& writer, const TargetRange& range);
[[nodiscard]] absl::StatusOr<TargetRange> ReadTargetRange(ByteReader& reader, const Task& task);
// Before 14 the targets learned were not kept: unknown (unbounded) once the
// model learned, empty before.
template <class Real>
TargetRange OlderFileTargetRange(const Task& task, const BasicLearner<Real>& learner) {
  const int outputs = task.is_classifier() ? 0 : task.num_outputs();
  return learner.samples_learned() > 0 ? TargetRange::Unbounded(outputs) : TargetRange(outputs);
}

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_CHECKPOINT_RECORD_H_
