// File: apps/commands/serve_command.h
//
// `rffstream serve`: one model in memory, many clients streaming CSV lines to
// it over TCP or a Unix socket, each line answered by one line (see README).
#ifndef RFFSTREAM_APPS_SERVE_COMMAND_H_
#define RFFSTREAM_APPS_SERVE_COMMAND_H_

#include "absl/status/status.h"
#include "core/options.h"

namespace rffstream::app {

// Runs until SIGINT or SIGTERM; returns how it ended (core/command_status.h).
absl::Status RunServeCommand(StreamOptions options);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_SERVE_COMMAND_H_
