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

namespace rffstream::app {

// In --input and --predictions: the rank.
inline constexpr std::string_view kRankPattern = "%r";

absl::Status ValidateDistributed(const StreamOptions& options, int ranks);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_DISTRIBUTED_OPTIONS_H_
