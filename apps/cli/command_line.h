// File: apps/cli/command_line.h
//
// What happens to the command line before the commands see it: --help and
// --version (printed to standard output, exit 0), flag names spelled with
// dashes (--save-every means --save_every), unknown flags and bad values
// (exit 2, with the closest known name) — so that Abseil's own handling, which prints build
// paths and exits 1, never runs.
#ifndef RFFSTREAM_APPS_COMMAND_LINE_H_
#define RFFSTREAM_APPS_COMMAND_LINE_H_

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rffstream::app {

// The arguments with each flag's name (before any '=') spelled with
// underscores; values and positional arguments unchanged.
std::vector<std::string> NormalizeFlagNames(int argc, char** argv);

// What is wrong with the first flag that no command defines ("unknown flag
// --x; did you mean --y?") or whose value does not parse; nullopt when all
// are well formed.
std::optional<std::string> CommandLineError(const std::vector<std::string>& arguments);

// Records which flags the arguments name (as NormalizeFlagNames spells
// them), for WasGivenOnCommandLine.
void RecordGivenOptions(const std::vector<std::string>& arguments);
// Whether the command line named the flag, even at its default value
// (--classes=0 against a classifier's checkpoint).
bool WasGivenOnCommandLine(std::string_view name);

// --help, -h, --helpfull, --helpshort.
bool AsksForHelp(const std::vector<std::string>& arguments);
bool AsksForVersion(const std::vector<std::string>& arguments);

// The usage text, then every flag of the app by topic, with its default.
// Every flag by topic after `usage`; with a command, that command's flags
// only. Lines of at most 100 columns.
void PrintHelp(std::FILE* out, const char* usage, std::string_view command = {});
// The command the arguments name, or empty.
std::string_view CommandOf(const std::vector<std::string>& arguments);
// "rffstream 0.1.0", the build type and the SIMD kernels of this CPU.
void PrintVersion(std::FILE* out);

// The commands, and for a name that is none of them the message that says
// so, with the closest one when it is close.
bool IsCommand(std::string_view name);
std::string UnknownCommandMessage(std::string_view name);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_COMMAND_LINE_H_
