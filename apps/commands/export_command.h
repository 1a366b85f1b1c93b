// File: apps/commands/export_command.h
//
// `rffstream export --load=FILE --format=json`: writes the model as readable
// JSON on standard output (see rffstream/json_export.h for the formula).
#ifndef RFFSTREAM_APPS_EXPORT_COMMAND_H_
#define RFFSTREAM_APPS_EXPORT_COMMAND_H_

#include "absl/status/status.h"
#include "core/options.h"

namespace rffstream::app {

absl::Status RunExportCommand(const ExportOptions& options);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_EXPORT_COMMAND_H_
