// File: apps/commands/ranks_drift_report.h
//
// Under mpirun with --forget=auto each rank watches its own errors
// (information_delta_sync.h): the changes every rank saw, and the merges
// that restarted the shared model, for rank 0's report.
#ifndef RFFSTREAM_APPS_RANKS_DRIFT_REPORT_H_
#define RFFSTREAM_APPS_RANKS_DRIFT_REPORT_H_

#include <cstdint>
#include <span>
#include <string>

#include "commands/mpi_world.h"

namespace rffstream::app {

// Every rank calls it (a gather) with the lines where it saw a change.
// Rank 0 gets a line such as "drift (--forget=auto) on the ranks: 1 merge
// restarted the shared model; rank 0: 1 change (line 2019), rank 1: none";
// the other ranks get "".
std::string RanksDriftReport(const MpiWorld& world, std::span<const std::int64_t> lines,
                             std::int64_t restarts);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_RANKS_DRIFT_REPORT_H_
