// File: apps/serve_command.h
//
// `rffstream serve`: one model in memory, many clients streaming CSV lines to
// it over TCP or a Unix socket, each line answered by one line (see README).
#ifndef RFFSTREAM_APPS_SERVE_COMMAND_H_
#define RFFSTREAM_APPS_SERVE_COMMAND_H_

namespace rffstream::app {

int RunServeCommand();

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_SERVE_COMMAND_H_
