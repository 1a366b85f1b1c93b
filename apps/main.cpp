// rffstream: a streaming online learner with random Fourier features and
// recursive least squares. `rffstream --help` lists the commands and flags.
#include <csignal>
#include <cstdio>
#include <string_view>
#include <vector>

#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/match.h"
#include "exit_codes.h"
#include "export_command.h"
#include "generate_command.h"
#include "learn_command.h"

namespace {

constexpr char kUsage[] =
    "a streaming online learner (random Fourier features + recursive least squares)\n\n"
    "usage: rffstream COMMAND [--flags]\n\n"
    "commands:\n"
    "  learn      read CSV lines, predict each one, then learn from it; running metrics on stderr\n"
    "  predict    predict CSV lines with a saved model (--load=FILE), without learning\n"
    "  export     write a saved model (--load=FILE) as JSON (--format=json)\n"
    "  generate   write a chaotic time series (Mackey-Glass, Lorenz) as a CSV stream\n\n"
    "example:\n"
    "  rffstream generate --series=mackey-glass | rffstream learn --features=256\n";

bool IsOurFlagFile(absl::string_view file) { return absl::StrContains(file, "apps/"); }

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(kUsage);
  absl::FlagsUsageConfig usage_config;
  usage_config.contains_help_flags = IsOurFlagFile;
  usage_config.contains_helpshort_flags = IsOurFlagFile;
  absl::SetFlagsUsageConfig(usage_config);
  const std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
  if (positional.size() != 2) {
    std::fprintf(stderr, "%s", kUsage);
    return rffstream::app::kExitUsageError;
  }
  // A closed output pipe shows up as a write error, not a silent death.
  std::signal(SIGPIPE, SIG_IGN);
  const std::string_view command = positional[1];
  if (command == "learn") return rffstream::app::RunLearnCommand();
  if (command == "predict") return rffstream::app::RunPredictCommand();
  if (command == "export") return rffstream::app::RunExportCommand();
  if (command == "generate") return rffstream::app::RunGenerateCommand();
  std::fprintf(stderr, "rffstream: unknown command '%s'\n\n%s", positional[1], kUsage);
  return rffstream::app::kExitUsageError;
}
