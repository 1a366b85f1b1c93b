// File: apps/front/run_coordinator.h
//
// What a run of `learn` asks of the processes it learns one stream with
// (commands/distributed_learn.h): to begin together, to share or merge the
// model after a line, and to finish with one summary and one save.
#ifndef RFFSTREAM_APPS_RUN_COORDINATOR_H_
#define RFFSTREAM_APPS_RUN_COORDINATOR_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "front/learn_output.h"
#include "rffstream/stream/stream_pipeline.h"

namespace rffstream::app {

// Processes that learn one stream together (commands/distributed_learn.h).
template <class Real>
class RunCoordinator {
 public:
  virtual ~RunCoordinator() = default;
  // Before the first line (after a model given to start from is in place).
  [[nodiscard]] virtual absl::Status Begin(StreamPipeline<Real>& pipeline) = 0;
  // After each line: may share or merge the model with the others.
  [[nodiscard]] virtual absl::Status AfterLine(StreamPipeline<Real>& pipeline) = 0;
  // At the end of this process's input, before the summary and the save:
  // the last merge. May replace `totals` by every process's; returns whether
  // this process reports and saves.
  [[nodiscard]] virtual absl::StatusOr<bool> Finish(StreamPipeline<Real>& pipeline,
                                                    RunTotals& totals) = 0;
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_RUN_COORDINATOR_H_
