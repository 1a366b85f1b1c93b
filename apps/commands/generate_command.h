// File: apps/commands/generate_command.h
//
// `rffstream generate`: writes a chaotic time series as a time-embedded CSV
// regression stream (inputs s_t, s_(t-1), ..., s_(t-L+1); target s_(t+1)).
#ifndef RFFSTREAM_APPS_GENERATE_COMMAND_H_
#define RFFSTREAM_APPS_GENERATE_COMMAND_H_

#include "absl/status/status.h"
#include "core/options.h"

namespace rffstream::app {

absl::Status RunGenerateCommand(const GenerateOptions& options);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_GENERATE_COMMAND_H_
