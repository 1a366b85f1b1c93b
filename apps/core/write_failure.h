// File: apps/core/write_failure.h
//
// The end of a command whose output could not be written: quietly (a
// success) when the reader closed the pipe (`rffstream generate | head`), as
// Unix filters stop; otherwise a failure naming the output and the reason (a
// full disk, say).
#ifndef RFFSTREAM_APPS_WRITE_FAILURE_H_
#define RFFSTREAM_APPS_WRITE_FAILURE_H_

#include <cerrno>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace rffstream::app {

// Call right after the failed write, with its errno.
inline absl::Status WriteFailure(const char* output, int error) {
  if (error == EPIPE) return absl::OkStatus();
  return absl::UnavailableError(absl::StrCat("cannot write to ", output, ": ", std::strerror(error)));
}

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_WRITE_FAILURE_H_
