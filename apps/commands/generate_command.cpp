#include "commands/generate_command.h"

#include <charconv>
#include <cerrno>
#include <cstdio>
#include <string>

#include "commands/chaotic_series.h"
#include "core/exit_codes.h"
#include "core/write_failure.h"

namespace rffstream::app {

int RunGenerateCommand(const GenerateOptions& options) {
  const int samples = options.samples;
  const int embedding = options.embedding;
  if (samples <= 0 || embedding <= 0) {
    std::fprintf(stderr, "rffstream generate: --samples and --embedding must be positive\n");
    return kExitUsageError;
  }
  absl::StatusOr<std::vector<double>> series =
      GenerateSeries(options.series, samples + embedding);
  if (!series.ok()) {
    std::fprintf(stderr, "rffstream generate: %s\n", std::string(series.status().message()).c_str());
    return kExitUsageError;
  }
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
      return ExitAfterWriteFailure("rffstream generate", "standard output", errno);
    }
  }
  if (std::fflush(stdout) != 0) {
    return ExitAfterWriteFailure("rffstream generate", "standard output", errno);
  }
  return kExitSuccess;
}

}  // namespace rffstream::app
