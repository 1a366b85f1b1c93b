// File: apps/cli/flags.h
//
// Reading the command line's flags into option values (options.h). Only the
// *_flags.cpp files, which define the flags, include this.
#ifndef RFFSTREAM_APPS_FLAGS_H_
#define RFFSTREAM_APPS_FLAGS_H_

#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/status/statusor.h"
#include "cli/command_line.h"
#include "core/options.h"

namespace rffstream::app {

// A flag the command line named (even at its default value), or that was
// set to something other than its default (by a flag file, say).
template <class T>
bool IsSetByUser(const absl::Flag<T>& flag) {
  const absl::CommandLineFlag& handle = absl::GetFlagReflectionHandle(flag);
  const absl::string_view name = handle.Name();
  return WasGivenOnCommandLine(std::string_view(name.data(), name.size())) ||
         handle.CurrentValue() != handle.DefaultValue();
}

// Notes `flag` in `given` when the user set it.
template <class T>
void NoteIfGiven(const absl::Flag<T>& flag, GivenOptions& given) {
  if (IsSetByUser(flag)) given.Add(std::string(absl::GetFlagReflectionHandle(flag).Name()));
}

// Each reads the flags of one kind of command (after absl::ParseCommandLine):
// the command table's entry for the command does, once. InvalidArgument
// naming the flag when a value is not one of its values.
absl::StatusOr<StreamOptions> StreamOptionsFromFlags();

absl::StatusOr<InputOptions> InputOptionsFromFlags();
absl::StatusOr<ModelOptions> ModelOptionsFromFlags();
ServerOptions ServerOptionsFromFlags();
// --load and --format, which export reads as a model file and an output format.
ExportOptions ExportOptionsFromFlags();
GenerateOptions GenerateOptionsFromFlags();
// The shards are the command's positional arguments; --save is the stream commands'.
MergeOptions MergeOptionsFromFlags(std::vector<std::string> shards);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_FLAGS_H_
