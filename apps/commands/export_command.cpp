#include "commands/export_command.h"

#include <cstdio>
#include <cerrno>
#include <sstream>
#include <string>

#include "core/command_status.h"
#include "core/distinct_files.h"
#include "rffstream/checkpoint.h"
#include "rffstream/json_export.h"
#include "core/write_failure.h"

namespace rffstream::app {
namespace {

template <class Real>
absl::Status Export(const std::string& path, bool covariance) {
  absl::StatusOr<BasicCheckpoint<Real>> checkpoint = LoadCheckpoint<Real>(path);
  if (!checkpoint.ok()) return AsIoFailure(checkpoint.status());
  // Through stdio, whose errors keep their errno (std::cout's do not).
  std::ostringstream json;
  ExportJson(checkpoint->learner, json,
             {.include_covariance = covariance,
              .task = &checkpoint->record.task,
              .target_range = &checkpoint->record.target_range});
  const std::string text = json.str();
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
    return WriteFailure("standard output", errno);
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status RunExportCommand(const ExportOptions& options) {
  const std::string& path = options.load;
  if (path.empty() || (!options.format.empty() && options.format != "json")) {
    return absl::InvalidArgumentError("needs --load=FILE and --format=json");
  }
  // `export --load=m.rff >> m.rff` would append the JSON to the checkpoint.
  const NamedPath checkpoint[] = {{"--load", path}};
  const NamedPath standard_output[] = {{"standard output", "-"}};
  if (absl::Status spared = CheckOutputsSpareInputs(checkpoint, standard_output); !spared.ok()) {
    return AsUsageError(spared);
  }
  absl::StatusOr<int> real_bytes = ReadCheckpointPrecision(path);
  if (!real_bytes.ok()) return AsIoFailure(real_bytes.status());
  return *real_bytes == 4 ? Export<float>(path, options.covariance)
                          : Export<double>(path, options.covariance);
}

}  // namespace rffstream::app
