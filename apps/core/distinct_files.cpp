#include "core/distinct_files.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"

namespace rffstream::app {
namespace {

// What a path stands for: an existing file by inode, or a path to be created.
struct FileKey {
  bool exists = false;
  dev_t device = 0;
  ino_t inode = 0;
  std::string normalized;  // when it does not exist

  bool SameAs(const FileKey& other) const {
    if (exists != other.exists) return false;
    if (exists) return device == other.device && inode == other.inode;
    return normalized == other.normalized;
  }
};

// nullopt for what cannot collide: nothing given, or a standard stream that
// is not a regular file (a terminal or a pipe).
std::optional<FileKey> KeyOf(const std::string& path, int standard_fd) {
  if (path.empty()) return std::nullopt;
  struct stat status;
  if (path == "-") {
    if (::fstat(standard_fd, &status) != 0 || !S_ISREG(status.st_mode)) return std::nullopt;
    return FileKey{true, status.st_dev, status.st_ino, {}};
  }
  if (::stat(path.c_str(), &status) == 0) return FileKey{true, status.st_dev, status.st_ino, {}};
  std::error_code error;
  const std::filesystem::path normalized = std::filesystem::weakly_canonical(path, error);
  return FileKey{false, 0, 0, error ? path : normalized.string()};
}

std::string Describe(const NamedPath& named) {
  if (named.path == "-") return absl::StrCat(named.flag, " (a standard stream)");
  if (named.path == kStandardError) return named.flag;
  return absl::StrCat(named.flag, "=", named.path);
}

}  // namespace

absl::Status CheckOutputsSpareInputs(std::span<const NamedPath> inputs,
                                     std::span<const NamedPath> outputs) {
  std::vector<std::optional<FileKey>> input_keys, output_keys;
  for (const NamedPath& input : inputs) input_keys.push_back(KeyOf(input.path, STDIN_FILENO));
  for (const NamedPath& output : outputs) output_keys.push_back(KeyOf(output.path, STDOUT_FILENO));
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    if (!output_keys[o].has_value()) continue;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (input_keys[i].has_value() && output_keys[o]->SameAs(*input_keys[i])) {
        return absl::InvalidArgumentError(
            absl::StrCat(Describe(outputs[o]), " is the same file as ", Describe(inputs[i]),
                         ": writing it would destroy the input; choose another output"));
      }
    }
    for (std::size_t other = 0; other < o; ++other) {
      if (output_keys[other].has_value() && output_keys[o]->SameAs(*output_keys[other])) {
        return absl::InvalidArgumentError(
            absl::StrCat(Describe(outputs[o]), " is the same file as ", Describe(outputs[other]),
                         ": each output needs a file of its own"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CheckDistinctInputs(std::span<const NamedPath> inputs) {
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::optional<FileKey> key = KeyOf(inputs[i].path, STDIN_FILENO);
    if (!key.has_value() || !key->exists) continue;
    for (std::size_t other = 0; other < i; ++other) {
      const std::optional<FileKey> other_key = KeyOf(inputs[other].path, STDIN_FILENO);
      if (other_key.has_value() && key->SameAs(*other_key)) {
        return absl::InvalidArgumentError(
            absl::StrCat(Describe(inputs[i]), " is the same file as ", Describe(inputs[other]),
                         ": a model given twice would count its samples twice"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace rffstream::app
