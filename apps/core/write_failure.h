// File: apps/core/write_failure.h
//
// The exit of a command whose output could not be written: quietly (exit 0)
// when the reader closed the pipe (`rffstream generate | head`), as Unix
// filters stop; otherwise a message naming the output and the reason (a
// full disk, say) and the I/O error code.
#ifndef RFFSTREAM_APPS_WRITE_FAILURE_H_
#define RFFSTREAM_APPS_WRITE_FAILURE_H_

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/exit_codes.h"

namespace rffstream::app {

// Call right after the failed write, with its errno.
inline int ExitAfterWriteFailure(const char* command, const char* output, int error) {
  if (error == EPIPE) return kExitSuccess;
  std::fprintf(stderr, "%s: cannot write to %s: %s\n", command, output, std::strerror(error));
  return kExitIoError;
}

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_WRITE_FAILURE_H_
