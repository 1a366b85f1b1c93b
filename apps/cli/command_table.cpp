#include "cli/command_table.h"

#include <utility>

#include "absl/strings/str_format.h"
#include "cli/flags.h"
#include "commands/export_command.h"
#include "commands/generate_command.h"
#include "commands/learn_command.h"
#include "commands/merge_command.h"
#include "commands/mpi_world.h"
#include "commands/serve_command.h"
#ifdef RFFSTREAM_HAVE_MPI
#include "commands/distributed_learn.h"
#endif

namespace rffstream::app {
namespace {

// learn, predict and serve read the stream's flags (input, model, output,
// checkpoints, server); a value none of them can take stops the command.
template <absl::Status (*kRun)(const StreamOptions&)>
absl::Status WithStreamOptions(std::vector<std::string>) {
  const absl::StatusOr<StreamOptions> options = StreamOptionsFromFlags();
  if (!options.ok()) return options.status();
  return kRun(*options);
}

absl::Status Learn(const StreamOptions& options) {
#ifdef RFFSTREAM_HAVE_MPI
  if (StartedByMpiLauncher()) {
    const MpiWorld world;
    return RunDistributedLearn(options, world);
  }
#endif
  return RunLearnCommand(options);
}

absl::Status Serve(const StreamOptions& options) { return RunServeCommand(options); }

absl::Status Export(std::vector<std::string>) {
  return RunExportCommand(ExportOptionsFromFlags());
}

absl::Status Merge(std::vector<std::string> files) {
  return RunMergeCommand(MergeOptionsFromFlags(std::move(files)));
}

absl::Status Generate(std::vector<std::string>) {
  return RunGenerateCommand(GenerateOptionsFromFlags());
}

constexpr Command kCommands[] = {
    {"learn", "read CSV lines, predict each one, then learn from it; running metrics on stderr",
     false, WithStreamOptions<Learn>},
    {"predict", "predict CSV lines with a saved model (--load=FILE), without learning", false,
     WithStreamOptions<RunPredictCommand>},
    {"export", "write a saved model (--load=FILE) as JSON (--format=json)", false, Export},
    {"serve", "learn from and answer many clients over TCP or a Unix socket", false,
     WithStreamOptions<Serve>},
    {"merge", "merge models learned on disjoint shards: --save=OUT [--base=BASE] IN1 IN2 ...", true,
     Merge},
    {"generate", "write a chaotic time series (Mackey-Glass, Lorenz) as a CSV stream", false,
     Generate},
};

}  // namespace

std::span<const Command> Commands() { return kCommands; }

const Command* FindCommand(std::string_view name) {
  for (const Command& command : kCommands) {
    if (command.name == name) return &command;
  }
  return nullptr;
}

std::string CommandSummaries() {
  std::string text;
  for (const Command& command : kCommands) {
    absl::StrAppendFormat(&text, "  %-10s %s\n", std::string(command.name),
                          std::string(command.summary));
  }
  return text;
}

}  // namespace rffstream::app
