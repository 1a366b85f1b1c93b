// File: rffstream/atomic_file.h
//
// Writing a file so that a crash at any moment leaves the old file or the
// new one, never half of one: the bytes go to a temporary file in the same
// directory (so that the rename is atomic), which is flushed and fsync'ed,
// renamed over the target, and the directory fsync'ed. The temporary that
// a killed write leaves behind is deleted by the next write to the same
// path. Messages name the file by `what` ("checkpoint"). Checkpoints are
// written so (rffstream/checkpoint.h), and so is any small file a reader
// must never see half of (serve's --port_file).
#ifndef RFFSTREAM_ATOMIC_FILE_H_
#define RFFSTREAM_ATOMIC_FILE_H_

#include <span>
#include <string>

#include "absl/status/status.h"

namespace rffstream {

// Whether `path` can be written: its directory exists and is writable, and
// the path is a regular file or nothing (never a device, directory or pipe,
// which a rename would replace).
[[nodiscard]] absl::Status CheckWritablePath(const std::string& path, const std::string& what);

[[nodiscard]] absl::Status WriteFileAtomically(const std::string& path,
                                               std::span<const unsigned char> bytes,
                                               const std::string& what);

}  // namespace rffstream

#endif  // RFFSTREAM_ATOMIC_FILE_H_
