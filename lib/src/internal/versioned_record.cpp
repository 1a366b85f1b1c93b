// A checkpoint's record read as each format version wrote it
// (versioned_record.h).
#include "internal/versioned_record.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "internal/checkpoint_record.h"

namespace rffstream::internal {
namespace {

// The classification metrics: a classes × classes confusion matrix of
// non-negative counts whose sum fits; `total` receives the sum.
absl::StatusOr<std::vector<std::int64_t>> ReadConfusionCounts(ByteReader& reader, const Task& task,
                                                              std::int64_t& total) {
  std::int32_t classes = 0;
  std::vector<std::int64_t> confusion;
  absl::Status status = reader.Read("classification metrics", classes);
  if (status.ok() && classes != task.num_classes) {
    status = absl::DataLossError(absl::StrCat(reader.source(), ": classification metrics of ",
                                              classes, " classes for a task of ", task.num_classes));
  }
  const auto cells = static_cast<std::uint64_t>(classes) * static_cast<std::uint64_t>(classes);
  if (status.ok()) status = reader.ReadArray("confusion counts", cells, confusion);
  if (!status.ok()) return status;
  total = 0;
  const bool counts_valid =
      std::all_of(confusion.begin(), confusion.end(), [&](std::int64_t count) {
        return count >= 0 && !__builtin_add_overflow(total, count, &total);
      });
  if (!counts_valid) {
    return absl::DataLossError(
        absl::StrCat(reader.source(), ": impossible sample counts in the metrics"));
  }
  return confusion;
}

// The metrics of the targets after the first (version 4 on; 3 kept the first only).
absl::StatusOr<std::vector<RegressionMetrics>> ReadFurtherTargets(ByteReader& reader,
                                                                  std::uint32_t version,
                                                                  const Task& task) {
  std::vector<RegressionMetrics> further_targets;
  if (version < 4) return further_targets;
  std::int32_t further = 0;
  if (absl::Status read = reader.Read("number of target metrics", further); !read.ok()) return read;
  if (further != 0 && (task.is_classifier() || further != task.num_outputs() - 1)) {
    return absl::DataLossError(absl::StrCat(reader.source(), ": metrics of ", int64_t{further} + 1,
                                            " targets for a task of ", task.num_outputs(),
                                            " outputs"));
  }
  for (std::int32_t target = 0; target < further; ++target) {
    absl::StatusOr<RegressionMetrics> read = ReadRegressionMetrics(reader);
    if (!read.ok()) return read.status();
    further_targets.push_back(*std::move(read));
  }
  return further_targets;
}

// Version 7 on: the warm-up window's part of the metrics, which must be a
// part of them (`answers`: the regression count, `classified`: the
// confusion total), and the drift restarts.
absl::Status ReadWarmUpPart(ByteReader& reader, std::uint32_t version, std::int64_t answers,
                            std::int64_t classified, CheckpointRecord& record) {
  if (version < 7) return absl::OkStatus();
  absl::StatusOr<RegressionMetrics> part = ReadRegressionMetrics(reader);
  if (!part.ok()) return part.status();
  WarmUpScores& warm_up = record.warm_up;
  warm_up.regression = *std::move(part);
  absl::Status read = reader.Read("warm-up answers", warm_up.classified);
  if (read.ok()) read = reader.Read("warm-up answers right", warm_up.classified_right);
  if (read.ok()) read = reader.Read("drift restarts", record.drift_restarts);
  if (!read.ok()) return read;
  if (record.drift_restarts < 0) {
    return absl::DataLossError(
        absl::StrCat(reader.source(), ": ", record.drift_restarts, " drift restarts"));
  }
  const bool fits = warm_up.regression.count() <= answers && warm_up.classified >= 0 &&
                    warm_up.classified_right >= 0 &&
                    warm_up.classified_right <= warm_up.classified &&
                    warm_up.classified <= classified;
  if (!fits) {
    return absl::DataLossError(absl::StrCat(
        reader.source(), ": the warm-up window's metrics are not a part of the metrics"));
  }
  return absl::OkStatus();
}

}  // namespace

// Everything after the learner and the task.
absl::StatusOr<CheckpointRecord> ReadRecord(ByteReader& reader, std::uint32_t version, Task task) {
  absl::StatusOr<RegressionMetrics> metrics = ReadRegressionMetrics(reader);
  if (!metrics.ok()) return metrics.status();
  std::int64_t classified = 0;
  absl::StatusOr<std::vector<std::int64_t>> confusion =
      ReadConfusionCounts(reader, task, classified);
  if (!confusion.ok()) return confusion.status();
  absl::StatusOr<std::vector<RegressionMetrics>> further_targets =
      ReadFurtherTargets(reader, version, task);
  if (!further_targets.ok()) return further_targets.status();
  if (version >= 5) {
    if (absl::Status read = ReadClassLabels(reader, task); !read.ok()) return read;
  }
  const int classes = task.num_classes;
  CheckpointRecord record{std::move(task), *metrics,
                          ClassificationMetrics(classes, *std::move(confusion)),
                          *std::move(further_targets)};
  if (absl::Status read = ReadWarmUpPart(reader, version, metrics->count(), classified, record);
      !read.ok()) {
    return read;
  }
  if (version >= 8) {
    absl::StatusOr<RidgeFollowState> read =
        ReadRidgeFollowState(reader, record.task.num_outputs());
    if (!read.ok()) return read.status();
    record.ridge_follow = *std::move(read);
  }
  if (version >= 9) {
    absl::StatusOr<DriftTrackingState> read = ReadDriftTrackingState(reader, record.task);
    if (!read.ok()) return read.status();
    record.drift_tracking = *std::move(read);
  }
  if (version >= 10) {
    absl::StatusOr<BandwidthFollowState> read = ReadBandwidthFollowState(reader, version, record.task);
    if (!read.ok()) return read.status();
    record.bandwidth_follow = *std::move(read);
  }
  if (version >= 14) {
    absl::StatusOr<TargetRange> read = ReadTargetRange(reader, record.task);
    if (!read.ok()) return read.status();
    record.target_range = *std::move(read);
  }
  return record;
}

}  // namespace rffstream::internal
