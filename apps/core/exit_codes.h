// File: apps/core/exit_codes.h
//
// The process exit codes of the rffstream app, documented in the README.
#ifndef RFFSTREAM_APPS_EXIT_CODES_H_
#define RFFSTREAM_APPS_EXIT_CODES_H_

namespace rffstream::app {

inline constexpr int kExitSuccess = 0;
// Input or output failed: a file that cannot be opened, read or written.
inline constexpr int kExitIoError = 1;
// The command line is wrong: unknown command, bad or conflicting flag values.
inline constexpr int kExitUsageError = 2;
// A malformed input line under --strict.
inline constexpr int kExitBadInput = 3;

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_EXIT_CODES_H_
