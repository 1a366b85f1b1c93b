// File: apps/core/file_identity.h
//
// What tells one version of a file from another: device, inode, size and
// modification time. Files here are replaced whole (written aside, then
// renamed over the path), so a new identity means new, complete contents,
// and an unchanged one that the file is still the one last written.
#ifndef RFFSTREAM_APPS_FILE_IDENTITY_H_
#define RFFSTREAM_APPS_FILE_IDENTITY_H_

#include <sys/stat.h>

#include <cstdint>
#include <string>

namespace rffstream::app {

struct FileIdentity {
  bool exists = false;
  dev_t device = 0;
  ino_t inode = 0;
  off_t size = 0;
  std::int64_t modified_ns = 0;

  bool operator==(const FileIdentity&) const = default;

  static FileIdentity Of(const struct stat& status) {
    return {true, status.st_dev, status.st_ino, status.st_size,
            static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1000000000 + status.st_mtim.tv_nsec};
  }
  // The file at `path` now (exists == false when there is none).
  static FileIdentity Of(const std::string& path) {
    struct stat status;
    return ::stat(path.c_str(), &status) == 0 ? Of(status) : FileIdentity{};
  }
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_FILE_IDENTITY_H_
