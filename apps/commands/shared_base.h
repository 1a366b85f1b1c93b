// File: apps/commands/shared_base.h
//
// The base every rank of `learn` under mpirun starts from: rank 0's model
// once its window is learned, sent whole as a checkpoint. Each copy of it
// (the snapshot, the bytes) holds D² numbers, so none outlives its step.
#ifndef RFFSTREAM_APPS_SHARED_BASE_H_
#define RFFSTREAM_APPS_SHARED_BASE_H_

#include <sstream>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "commands/mpi_world.h"
#include "core/command_status.h"
#include "rffstream/checkpoint.h"
#include "rffstream/stream/model_stage.h"

namespace rffstream::app {

// Rank 0's model to every other rank.
template <class Real>
absl::Status BroadcastBase(const MpiWorld& world, const ModelStage<Real>& model) {
  std::ostringstream bytes;
  {
    const BasicCheckpoint<Real> base = model.Snapshot();
    if (absl::Status written = WriteCheckpoint(bytes, base.learner, base.record); !written.ok()) {
      return written;
    }
  }
  std::string message = std::move(bytes).str();
  world.Broadcast(message);
  return absl::OkStatus();
}

// Rank 0's model, the start of every other rank: its metrics are rank 0's;
// the targets' range is the window's; the ridge follower's sums are where
// every rank's count starts from; the lines the bandwidth follower keeps
// are rank 0's (every other rank keeps its own from here).
template <class Real>
BasicCheckpoint<Real> WithoutMetrics(BasicCheckpoint<Real> checkpoint) {
  const Task& task = checkpoint.record.task;
  CheckpointRecord record{task, RegressionMetrics(), ClassificationMetrics(task.num_classes), {}};
  record.ridge_follow = std::move(checkpoint.record.ridge_follow);
  record.bandwidth_follow = std::move(checkpoint.record.bandwidth_follow);
  record.bandwidth_follow.inputs.clear();
  record.bandwidth_follow.targets.clear();
  record.target_range = std::move(checkpoint.record.target_range);  // the window's targets
  checkpoint.record = std::move(record);
  return checkpoint;
}

// Rank 0's model, as every other rank receives it; the message's copies
// (D² numbers each) are gone when it returns.
template <class Real>
absl::StatusOr<BasicCheckpoint<Real>> ReceiveBase(const MpiWorld& world) {
  std::string bytes;
  world.Broadcast(bytes);  // waits for rank 0's model
  // No model: rank 0 says why, and stops every rank.
  if (bytes.empty()) return AsBadInput(absl::AbortedError(""));
  std::istringstream stream(std::move(bytes));
  absl::StatusOr<BasicCheckpoint<Real>> base = ReadCheckpoint<Real>(stream, "rank 0's model");
  if (!base.ok()) return AsIoFailure(base.status());
  return base;
}

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_SHARED_BASE_H_
