#include "commands/distributed_options.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "commands/mpi_world.h"
#include "rffstream/stream/option_text.h"

namespace rffstream::app {

absl::Status ValidateDistributed(const StreamOptions& options, int ranks) {
  const double forget = options.model.forget.value_or(1.0);
  if (forget != 1.0 && options.input.find(kRankPattern) != std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat(
        "under mpirun, --forget=", ShortestNumber(forget),
        " needs one input file: forgetting weighs each line by its place in the stream, and "
        "files per rank (%r) give the lines no common order"));
  }
  if (options.model.loss != Loss::kSquared) {
    return absl::InvalidArgumentError(
        "under mpirun, --loss=hinge: the ranks merge squared-loss models only (the hinge loss "
        "learns each class from its own margin violations)");
  }
  if (options.checkpoint.save_every > 0 || options.checkpoint.save_interval > 0) {
    return absl::InvalidArgumentError(
        "under mpirun, --save_every and --save_interval are not supported: rank 0 saves the "
        "merged model at the end (--save)");
  }
  if (options.parallel.ranks_gather_only && forget != 1.0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "under mpirun, --rank_model=merged needs --forget=1 or auto, not --forget=",
        ShortestNumber(forget), ": the merges set the noise estimate from the targets' squares, "
        "which holds for a forgetting factor of 1 only"));
  }
  if (options.parallel.sync_every < 0) {
    return absl::InvalidArgumentError("--sync_every must be >= 0");
  }
  if (ranks > 1 && options.input == "-") {
    return absl::InvalidArgumentError(
        "under mpirun with more than one rank, --input must be a file (each rank reads its "
        "share) or a pattern with %r (a file per rank), not standard input");
  }
  const std::string& predictions = options.output.predictions;
  if (ranks > 1 && !predictions.empty() && predictions.find(kRankPattern) == std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat(
        "under mpirun each rank writes its own predictions: put %r (the rank) in --predictions=",
        predictions));
  }
  return absl::OkStatus();
}

double MergeMemoryBytes(int row_length, int outputs, int bytes_per_number) {
  const double square = static_cast<double>(row_length) * (row_length + outputs);
  const double piece = std::min(static_cast<double>(MpiWorld::kSumPiece), square + 1);
  return (3.0 * sizeof(double) + 2.0 * bytes_per_number) * square + 2.0 * sizeof(double) * piece;
}

absl::Status RankFitsMemory(const LearnerConfig& config, int bytes_per_number, int block_size,
                            double limit) {
  const int row_length = config.features.num_features + (config.intercept ? 1 : 0);
  const double needed = config.MemoryBytes(bytes_per_number, block_size) +
                        MergeMemoryBytes(row_length, config.num_outputs, bytes_per_number);
  if (needed <= limit) return absl::OkStatus();
  constexpr double kMiB = 1 << 20;
  return absl::ResourceExhaustedError(absl::StrFormat(
      "under mpirun a rank would take about %.0f MiB here (the model, and for the merges the "
      "running total A, this rank's sums since the last merge and the merged square root of A, "
      "D x D numbers in double each, D = %d), more than the limit of %.0f MiB "
      "(--max_model_memory_mb; by default half the physical memory)",
      needed / kMiB, row_length, limit / kMiB));
}

}  // namespace rffstream::app
