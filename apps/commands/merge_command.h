// File: apps/commands/merge_command.h
//
// `rffstream merge --save=OUT [--base=BASE] IN1 IN2 ...`: checkpoints of one
// model learned on disjoint shards of a stream become the model that learned
// them all (rffstream/merge.h), saved with their merged counters and metrics.
#ifndef RFFSTREAM_APPS_MERGE_COMMAND_H_
#define RFFSTREAM_APPS_MERGE_COMMAND_H_

#include "absl/status/status.h"
#include "core/options.h"

namespace rffstream::app {

absl::Status RunMergeCommand(const MergeOptions& options);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_MERGE_COMMAND_H_
