// File: apps/core/distinct_files.h
//
// No output ever overwrites an input: before a command opens anything for
// writing, every output path is checked against every input (and against
// the other outputs). Two paths name the same file when they reach the same
// inode (hard links, symlinks, "./a" and "a"); an output that does not exist
// yet is compared by its absolute, normalized path. "-" (standard input or
// output) stands for whatever file descriptor 0 or 1 is.
#ifndef RFFSTREAM_APPS_DISTINCT_FILES_H_
#define RFFSTREAM_APPS_DISTINCT_FILES_H_

#include <span>
#include <string>

#include "absl/status/status.h"

namespace rffstream::app {

// The path of standard error, which an input must not be (the log would be
// read back as data).
inline constexpr char kStandardError[] = "/dev/stderr";

struct NamedPath {
  std::string flag;  // how messages name it: "--input", "--save", "shard 2"
  std::string path;  // "" = not given
};

// InvalidArgument naming both flags and the file when an output is the same
// file as an input or as another output; OK otherwise.
[[nodiscard]] absl::Status CheckOutputsSpareInputs(std::span<const NamedPath> inputs,
                                                   std::span<const NamedPath> outputs);

// InvalidArgument when two of `inputs` are the same file (a model merged
// with itself would count its samples twice).
[[nodiscard]] absl::Status CheckDistinctInputs(std::span<const NamedPath> inputs);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_DISTINCT_FILES_H_
