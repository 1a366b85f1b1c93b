// File: apps/commands/distributed_options.h
//
// What `learn` under mpirun refuses before any rank starts (each rank finds
// the same): options that have no exact or no meaningful data-parallel
// form.
#ifndef RFFSTREAM_APPS_DISTRIBUTED_OPTIONS_H_
#define RFFSTREAM_APPS_DISTRIBUTED_OPTIONS_H_

#include <string_view>

#include "absl/status/status.h"
#include "core/options.h"
#include "rffstream/learner_config.h"

namespace rffstream::app {

// In --input and --predictions: the rank.
inline constexpr std::string_view kRankPattern = "%r";

absl::Status ValidateDistributed(const StreamOptions& options, int ranks);

// The bytes a rank holds for the merges beside its model (rows of
// `row_length` numbers, `bytes_per_number` each): the running total A, b
// and the delta's sums, D² doubles each; at a merge the square root of A
// made in double, then in the model's numbers beside the one it replaces;
// and MPI's buffers for one piece of a sum (MpiWorld::Sum).
double MergeMemoryBytes(int row_length, int outputs, int bytes_per_number);

// ResourceExhausted, naming the estimate, when a rank of this model (blocks
// of `block_size`) would take more than `limit` bytes with the merges'.
absl::Status RankFitsMemory(const LearnerConfig& config, int bytes_per_number, int block_size,
                            double limit);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_DISTRIBUTED_OPTIONS_H_
