#include "commands/generate_command.h"

#include <charconv>
#include <cerrno>
#include <cstdio>
#include <string>

#include "commands/chaotic_series.h"
#include "core/command_status.h"
#include "core/write_failure.h"

namespace rffstream::app {

absl::Status RunGenerateCommand(const GenerateOptions& options) {
  const int samples = options.samples;
  const int embedding = options.embedding;
  if (samples <= 0 || embedding <= 0) {
    return absl::InvalidArgumentError("--samples and --embedding must be positive");
  }
  absl::StatusOr<std::vector<double>> series =
      GenerateSeries(options.series, samples + embedding);
  if (!series.ok()) return AsUsageError(series.status());
  // Line t: s_t, s_(t-1), ..., s_(t-L+1), then the target s_(t+1).
  std::string line;
  char number[32];
  for (int t = embedding - 1; t + 1 < static_cast<int>(series->size()); ++t) {
    line.clear();
    for (int lag = 0; lag <= embedding; ++lag) {
      const double value = lag < embedding ? (*series)[t - lag] : (*series)[t + 1];
      const auto result = std::to_chars(number, number + sizeof(number), value);
      line.append(number, result.ptr);
      line.push_back(lag < embedding ? ',' : '\n');
    }
    if (std::fwrite(line.data(), 1, line.size(), stdout) != line.size()) {
      return WriteFailure("standard output", errno);
    }
  }
  if (std::fflush(stdout) != 0) {
    return WriteFailure("standard output", errno);
  }
  return absl::OkStatus();
}

}  // namespace rffstream::app
