#include "commands/mpi_world.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace rffstream::app {

MpiWorld::MpiWorld() {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiWorld::~MpiWorld() { MPI_Finalize(); }

void MpiWorld::Broadcast(std::string& bytes) const {
  std::uint64_t length = bytes.size();
  MPI_Bcast(&length, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  bytes.resize(length);
  // In pieces that an int counts.
  constexpr std::uint64_t kPiece = 1 << 30;
  for (std::uint64_t at = 0; at < length; at += kPiece) {
    const int count = static_cast<int>(std::min(kPiece, length - at));
    MPI_Bcast(bytes.data() + at, count, MPI_BYTE, 0, MPI_COMM_WORLD);
  }
}

void MpiWorld::Sum(std::span<double> values) const {
  for (std::size_t at = 0; at < values.size(); at += kSumPiece) {
    const int count = static_cast<int>(std::min(kSumPiece, values.size() - at));
    MPI_Allreduce(MPI_IN_PLACE, values.data() + at, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

double MpiWorld::Max(double value) const {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return value;
}

void MpiWorld::Max(std::span<double> values) const {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_MAX,
                MPI_COMM_WORLD);
}

std::vector<double> MpiWorld::Gather(std::span<const double> row) const {
  std::vector<double> rows(row.size() * static_cast<std::size_t>(size_));
  MPI_Allgather(row.data(), static_cast<int>(row.size()), MPI_DOUBLE, rows.data(),
                static_cast<int>(row.size()), MPI_DOUBLE, MPI_COMM_WORLD);
  return rows;
}

void MpiWorld::Abort(int exit_code) const {
  MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::_Exit(exit_code);
}

}  // namespace rffstream::app
