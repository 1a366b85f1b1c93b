#include "export_command.h"

#include <cstdio>
#include <iostream>
#include <string>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "exit_codes.h"
#include "rffstream/checkpoint.h"
#include "rffstream/json_export.h"

ABSL_DECLARE_FLAG(std::string, load);
ABSL_DECLARE_FLAG(std::string, format);
ABSL_FLAG(bool, covariance, false, "export: include the D x D matrix P in the JSON");

namespace rffstream::app {
namespace {

template <class Real>
int Export(const std::string& path) {
  absl::StatusOr<BasicCheckpoint<Real>> checkpoint = LoadCheckpoint<Real>(path);
  if (!checkpoint.ok()) {
    std::fprintf(stderr, "rffstream export: %s\n", std::string(checkpoint.status().message()).c_str());
    return kExitIoError;
  }
  ExportJson(checkpoint->learner, std::cout, {.include_covariance = absl::GetFlag(FLAGS_covariance)});
  std::cout.flush();
  return std::cout ? kExitSuccess : kExitIoError;
}

}  // namespace

int RunExportCommand() {
  const std::string path = absl::GetFlag(FLAGS_load);
  const std::string format = absl::GetFlag(FLAGS_format);
  if (path.empty() || (!format.empty() && format != "json")) {
    std::fprintf(stderr, "rffstream export: needs --load=FILE and --format=json\n");
    return kExitUsageError;
  }
  absl::StatusOr<int> real_bytes = ReadCheckpointPrecision(path);
  if (!real_bytes.ok()) {
    std::fprintf(stderr, "rffstream export: %s\n", std::string(real_bytes.status().message()).c_str());
    return kExitIoError;
  }
  return *real_bytes == 4 ? Export<float>(path) : Export<double>(path);
}

}  // namespace rffstream::app
