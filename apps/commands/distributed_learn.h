// File: apps/commands/distributed_learn.h
//
// `mpirun -np N rffstream learn ...`: data-parallel learning. Rank 0 reads the
// warm-up window (the first lines of the input, or of its own file), builds
// the model as `learn` does and sends it to every rank; the lines after the
// window are dealt round robin (line w + 1 + j to rank j mod N), or each rank
// reads its own file when --input holds %r. Each rank predicts its lines
// before learning them, as `learn` does, and keeps what it learned since the
// last merge (ΔA = Σ z zᵀ, Δb = Σ z y: InformationDelta). Every
// --sync_every samples per rank, and at the end, the ranks sum their deltas
// (MPI_Allreduce) and all continue from A = A_base + Σ ΔA, w = A⁻¹ b, so the
// final model, saved by rank 0, is the one a single process learns from the
// same lines (β = 1), up to rounding. Rank 0 prints one summary with every
// rank's metrics; each rank writes its own predictions (--predictions with %r).
#ifndef RFFSTREAM_APPS_DISTRIBUTED_LEARN_H_
#define RFFSTREAM_APPS_DISTRIBUTED_LEARN_H_

#include "commands/mpi_world.h"
#include "absl/status/status.h"
#include "core/options.h"

namespace rffstream::app {

// Returns how this rank ended; a rank that fails stops every rank.
absl::Status RunDistributedLearn(StreamOptions options, const MpiWorld& world);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_DISTRIBUTED_LEARN_H_
