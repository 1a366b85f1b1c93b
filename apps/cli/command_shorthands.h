// File: apps/cli/command_shorthands.h
//
// What Vowpal Wabbit users type without thinking, as the long flags it
// stands for: -d FILE (--input), -f FILE (--save, the final model), -i FILE
// (--load, the initial model), -p FILE (--predictions), -t (test only:
// learn becomes predict), and a positional input (`rffstream learn
// data.csv`) for learn and predict. The value may follow as the next
// argument or after '='.
#ifndef RFFSTREAM_APPS_COMMAND_SHORTHANDS_H_
#define RFFSTREAM_APPS_COMMAND_SHORTHANDS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace rffstream::app {

// `arguments` (argv, flag names normalized) with the shorthands spelled
// out; InvalidArgument for a short option without its value or a second
// positional input.
[[nodiscard]] absl::StatusOr<std::vector<std::string>> ExpandShorthands(
    std::vector<std::string> arguments);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_COMMAND_SHORTHANDS_H_
