// File: apps/core/command_status.h
//
// How a command ends: an absl::Status, turned into the process's exit code
// and its last message here, in one place.
//
//   ok                      exit 0
//   kInvalidArgument        exit 2: the command line is wrong (bad or
//                           conflicting flags, a model that disagrees)
//   any other code          exit 1: input or output failed
//
// unless the status carries its exit code (WithExitCode): a malformed input
// (3) or a stopping signal (128 + its number). A status whose message is
// empty was reported already (say, by the line that stopped a --strict run).
#ifndef RFFSTREAM_APPS_COMMAND_STATUS_H_
#define RFFSTREAM_APPS_COMMAND_STATUS_H_

#include <string_view>

#include "absl/status/status.h"

namespace rffstream::app {

// `status` (not ok) that ends the process with `exit_code`.
absl::Status WithExitCode(absl::Status status, int exit_code);

// A failure of reading or writing a file, whatever its status code says.
absl::Status AsIoFailure(absl::Status status);

// The input itself is at fault: exit 3 (--strict, or nothing learned).
absl::Status AsBadInput(absl::Status status);

// A wrong command line or a conflict with a loaded model: exit 2.
absl::Status AsUsageError(absl::Status status);

// A run that stopped on `signal` (its summary and save done): exit
// 128 + signal, with the message of `status` if it failed too.
absl::Status StoppedBySignal(int signal, absl::Status status);

// Keeps the first failure of several (a run that ends by closing its
// output, its metrics file and saving): the later ones' messages are added.
void KeepFirstFailure(absl::Status& first, const absl::Status& next);

int ExitCodeOf(const absl::Status& status);

// Prints "rffstream COMMAND: message" unless the message is empty.
void ReportFailure(std::string_view command, const absl::Status& status);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_COMMAND_STATUS_H_
