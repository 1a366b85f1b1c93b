// rffstream: a streaming online learner with random Fourier features and
// recursive least squares. `rffstream --help` lists the commands and flags.
#include <malloc.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "cli/command_line.h"
#include "cli/command_shorthands.h"
#include "cli/command_table.h"
#include "cli/flag_readers.h"
#include "cli/flags.h"
#include "core/command_status.h"
#include "core/exit_codes.h"
#include "rffstream/simd.h"

ABSL_FLAG(std::string, simd, "",
          "SIMD kernels (sin/cos, RLS passes): list prints the ones this CPU supports (* = chosen); a name "
          "forces one. Default: the environment variable RFFSTREAM_SIMD, else the best");

namespace {

std::string Usage() {
  return absl::StrCat(
      "a streaming online learner (random Fourier features + recursive least squares)\n\n"
      "usage: rffstream COMMAND [--flags]   (learn and predict: also rffstream learn FILE;\n"
      "       -d FILE = --input, -f FILE = --save, -i FILE = --load, -p FILE = --predictions,\n"
      "       -t = predict only)\n\n"
      "commands:\n",
      rffstream::app::CommandSummaries(),
      "\nexample:\n"
      "  rffstream generate --series=mackey-glass | rffstream learn --features=256\n");
}

// --simd (or RFFSTREAM_SIMD): nullopt to go on, or the exit code to stop with.
std::optional<int> ApplySimdChoice() {
  std::string choice = absl::GetFlag(FLAGS_simd);
  const char* environment = std::getenv("RFFSTREAM_SIMD");
  const bool from_environment = choice.empty() && environment != nullptr && *environment != '\0';
  if (from_environment) choice = environment;
  if (choice.empty()) return std::nullopt;
  if (choice == "list") {
    const std::string active = rffstream::ActiveSimdKernel();
    for (const std::string& name : rffstream::SupportedSimdKernels()) {
      std::printf("%s%s\n", name.c_str(), name == active ? " *" : "");
    }
    return rffstream::app::kExitSuccess;
  }
  if (absl::Status status = rffstream::ForceSimdKernel(choice); !status.ok()) {
    std::fprintf(stderr, "rffstream: %s%s\n", from_environment ? "RFFSTREAM_SIMD: " : "--simd: ",
                 std::string(status.message()).c_str());
    return rffstream::app::kExitUsageError;
  }
  return std::nullopt;
}

void KeepBlockBuffersMapped() {
  // Block updates (--block) allocate Eigen's product buffers for every block.
  // By default glibc maps the larger ones afresh and gives the top of the
  // heap back to the kernel after each block, faulting the pages in again for
  // the next (9 to 170 page faults a block; 13 % of `learn --block=64
  // --precision=float32` at D=256, 40 % in float64). Keep them: buffers up to
  // 32 MiB come from the heap, and up to 256 MiB of free heap stays mapped.
  // (Setting either turns off glibc's own adaptation of the other.)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

// Only learn shares its work between ranks; any other command run by every
// rank would do it N times (every prediction written N times), and learn in
// a build without MPI would learn the whole input in every process.
absl::Status RefusedUnderMpi(std::string_view command) {
  const char* ranks = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (ranks == nullptr || std::string_view(ranks) == "1") return absl::OkStatus();
  if (command != "learn") {
    return absl::InvalidArgumentError(absl::StrCat(
        "started by mpirun with ", ranks, " processes, each of which would do all of it (write "
        "every answer ", ranks, " times): only learn runs under mpirun; run ", std::string(command),
        " as one process"));
  }
#ifndef RFFSTREAM_HAVE_MPI
  return absl::InvalidArgumentError(absl::StrCat(
      "this build has no MPI, so under mpirun each of the ", ranks,
      " processes would learn the whole input alone: build with MPI (libopenmpi-dev)"));
#else
  return absl::OkStatus();
#endif
}

}  // namespace

int main(int argc, char** argv) {
  absl::StatusOr<std::vector<std::string>> expanded =
      rffstream::app::ExpandShorthands(rffstream::app::NormalizeFlagNames(argc, argv));
  if (!expanded.ok()) {
    std::fprintf(stderr, "rffstream: %s\n", std::string(expanded.status().message()).c_str());
    return rffstream::app::kExitUsageError;
  }
  std::vector<std::string> arguments = *std::move(expanded);
  if (rffstream::app::AsksForHelp(arguments)) {
    rffstream::app::PrintHelp(stdout, Usage().c_str(), rffstream::app::CommandOf(arguments));
    return rffstream::app::kExitSuccess;
  }
  if (rffstream::app::AsksForVersion(arguments)) {
    rffstream::app::PrintVersion(stdout);
    return rffstream::app::kExitSuccess;
  }
  if (std::optional<std::string> error = rffstream::app::CommandLineError(arguments)) {
    std::fprintf(stderr, "rffstream: %s\n", error->c_str());
    return rffstream::app::kExitUsageError;
  }
  rffstream::app::RecordGivenOptions(arguments);
  std::vector<char*> pointers;
  for (std::string& argument : arguments) pointers.push_back(argument.data());
  const std::vector<char*> positional =
      absl::ParseCommandLine(static_cast<int>(pointers.size()), pointers.data());
  if (std::optional<int> exit_code = ApplySimdChoice()) return *exit_code;
  const rffstream::app::Command* command =
      positional.size() > 1 ? rffstream::app::FindCommand(positional[1]) : nullptr;
  if (positional.size() > 1 && command == nullptr) {
    std::fprintf(stderr, "rffstream: %s\n\n%s",
                 rffstream::app::UnknownCommandMessage(positional[1]).c_str(), Usage().c_str());
    return rffstream::app::kExitUsageError;
  }
  if (command == nullptr) {
    std::fprintf(stderr, "%s", Usage().c_str());
    return rffstream::app::kExitUsageError;
  }
  if (positional.size() > 2 && !command->takes_files) {
    std::fprintf(stderr, "rffstream: %s takes no argument '%s': files are given by flags (%s --help)\n",
                 positional[1], positional[2], positional[1]);
    return rffstream::app::kExitUsageError;
  }
  if (std::optional<std::string> unread = rffstream::app::FlagNotReadBy(command->name)) {
    std::fprintf(stderr, "rffstream: %s\n", unread->c_str());
    return rffstream::app::kExitUsageError;
  }
  // A closed output pipe shows up as a write error (EPIPE), which the
  // commands answer by stopping quietly, after saving what they must.
  std::signal(SIGPIPE, SIG_IGN);
  KeepBlockBuffersMapped();
  absl::Status status = RefusedUnderMpi(command->name);
  if (status.ok()) {
    status = command->run(std::vector<std::string>(positional.begin() + 2, positional.end()));
  }
  rffstream::app::ReportFailure(command->name, status);
  return rffstream::app::ExitCodeOf(status);
}
