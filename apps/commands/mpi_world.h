// File: apps/commands/mpi_world.h
//
// The few MPI calls data-parallel learning makes, behind a small interface
// (the only file that includes mpi.h): start and finish, this process's rank
// among how many, broadcast bytes from rank 0, sum numbers over every rank,
// gather one row from each, and stop every rank at once.
#ifndef RFFSTREAM_APPS_MPI_WORLD_H_
#define RFFSTREAM_APPS_MPI_WORLD_H_

#include <cstddef>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

namespace rffstream::app {

// Whether this process was started by Open MPI's mpirun (the MPI this
// project builds with). Other launchers' variables (PMI_RANK, PMIX_RANK) are
// also set for a plain Slurm job step, which must stay a plain `learn`.
// Needs no MPI library.
inline bool StartedByMpiLauncher() { return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr; }

class MpiWorld {
 public:
  // MPI_Init_thread: one thread calls MPI (the learning one).
  MpiWorld();
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;
  ~MpiWorld();  // MPI_Finalize

  int rank() const { return rank_; }
  int size() const { return size_; }

  // Rank 0's `bytes` become every rank's.
  void Broadcast(std::string& bytes) const;
  // Every rank's `values` become their elementwise sum, in pieces of
  // kSumPiece numbers: MPI's reduction buffers stay that small.
  static constexpr std::size_t kSumPiece = std::size_t{1} << 21;
  void Sum(std::span<double> values) const;
  // The largest of every rank's `value`.
  double Max(double value) const;
  // Every rank's `values` become their elementwise largest.
  void Max(std::span<double> values) const;
  // Every rank's row (all of one length), rank by rank.
  std::vector<double> Gather(std::span<const double> row) const;
  // Ends every rank of the job with `exit_code` (after this one printed why).
  [[noreturn]] void Abort(int exit_code) const;

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_MPI_WORLD_H_
