// File: apps/cli/command_table.h
//
// The commands `rffstream` runs: each one's name, its line in the usage text
// and the function that reads its flags and runs it. A command returns an
// absl::Status, which main turns into the exit code and the last message
// (core/command_status.h).
#ifndef RFFSTREAM_APPS_COMMAND_TABLE_H_
#define RFFSTREAM_APPS_COMMAND_TABLE_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace rffstream::app {

struct Command {
  std::string_view name;
  std::string_view summary;
  // merge takes the models to merge as arguments after its name.
  bool takes_files = false;
  // `files`: the arguments after the name. The flags are parsed already.
  absl::Status (*run)(std::vector<std::string> files) = nullptr;
};

std::span<const Command> Commands();

// nullptr if no command has that name.
const Command* FindCommand(std::string_view name);

// The usage text's list of commands, a line each.
std::string CommandSummaries();

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_COMMAND_TABLE_H_
