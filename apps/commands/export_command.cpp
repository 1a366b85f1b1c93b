#include "commands/export_command.h"

#include <cstdio>
#include <cerrno>
#include <sstream>
#include <string>

#include "core/exit_codes.h"
#include "rffstream/checkpoint.h"
#include "rffstream/json_export.h"
#include "core/write_failure.h"

namespace rffstream::app {
namespace {

template <class Real>
int Export(const std::string& path, bool covariance) {
  absl::StatusOr<BasicCheckpoint<Real>> checkpoint = LoadCheckpoint<Real>(path);
  if (!checkpoint.ok()) {
    std::fprintf(stderr, "rffstream export: %s\n", std::string(checkpoint.status().message()).c_str());
    return kExitIoError;
  }
  // Through stdio, whose errors keep their errno (std::cout's do not).
  std::ostringstream json;
  ExportJson(checkpoint->learner, json,
             {.include_covariance = covariance, .task = &checkpoint->record.task});
  const std::string text = json.str();
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
    return ExitAfterWriteFailure("rffstream export", "standard output", errno);
  }
  return kExitSuccess;
}

}  // namespace

int RunExportCommand(const ExportOptions& options) {
  const std::string& path = options.load;
  if (path.empty() || (!options.format.empty() && options.format != "json")) {
    std::fprintf(stderr, "rffstream export: needs --load=FILE and --format=json\n");
    return kExitUsageError;
  }
  absl::StatusOr<int> real_bytes = ReadCheckpointPrecision(path);
  if (!real_bytes.ok()) {
    std::fprintf(stderr, "rffstream export: %s\n", std::string(real_bytes.status().message()).c_str());
    return kExitIoError;
  }
  return *real_bytes == 4 ? Export<float>(path, options.covariance)
                          : Export<double>(path, options.covariance);
}

}  // namespace rffstream::app
