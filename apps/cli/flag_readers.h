// File: apps/cli/flag_readers.h
//
// Which commands read each flag: the help of a command lists those flags,
// and a flag given to a command that does not read it is refused (exit 2)
// rather than ignored (`predict --save=m.rff` would save nothing, `serve
// --input=f.csv` would serve without reading f.csv).
#ifndef RFFSTREAM_APPS_FLAG_READERS_H_
#define RFFSTREAM_APPS_FLAG_READERS_H_

#include <optional>
#include <string>
#include <string_view>

#include "absl/flags/commandlineflag.h"

namespace rffstream::app {

// The heading the flag's help goes under ("model (learn, serve; checked
// against --load)"), or "every command".
std::string_view FlagTopic(const absl::CommandLineFlag& flag);

// Whether `command` reads the flag.
bool CommandReadsFlag(std::string_view command, const absl::CommandLineFlag& flag);

// The message for the first flag named on the command line that `command`
// does not read, naming the commands that do; nullopt when there is none.
std::optional<std::string> FlagNotReadBy(std::string_view command);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_FLAG_READERS_H_
