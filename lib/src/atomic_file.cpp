#include "rffstream/atomic_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"

namespace rffstream {
namespace {

// The error of a failed system call, coded by its cause: a caller can tell
// a denied permission or a full disk from a fault.
absl::Status ErrnoError(const std::string& what, const std::string& path) {
  const int error = errno;
  const std::string message = absl::StrCat("cannot ", what, " ", path, ": ", std::strerror(error));
  switch (error) {
    case EACCES:
    case EPERM:
    case EROFS:
      return absl::PermissionDeniedError(message);
    case ENOENT:
    case ENOTDIR:
      return absl::NotFoundError(message);
    case ENOSPC:
    case EDQUOT:
      return absl::ResourceExhaustedError(message);
    default:
      return absl::InternalError(message);
  }
}

constexpr char kTemporarySuffix[] = ".tmp.";

std::filesystem::path DirectoryOf(const std::string& path) {
  const std::filesystem::path target(path);
  return target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
}

// Deletes the temporaries of `name` that earlier saves were killed before
// renaming: those no save holds locked, and older than a few seconds (a
// save locks its temporary just after creating it). Best effort: errors are
// ignored.
void RemoveStaleTemporaries(const std::filesystem::path& directory, const std::string& name) {
  const std::string prefix = name + kTemporarySuffix;
  constexpr std::size_t kRandomPart = 6;  // mkstemp's XXXXXX
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    const std::string file = entry.path().filename().string();
    if (file.size() != prefix.size() + kRandomPart || file.compare(0, prefix.size(), prefix) != 0 ||
        !entry.is_regular_file(error) ||
        std::filesystem::file_time_type::clock::now() - entry.last_write_time(error) <
            std::chrono::seconds(5)) {
      continue;
    }
    const int fd = ::open(entry.path().c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) continue;
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) ::unlink(entry.path().c_str());
    ::close(fd);
  }
}

// write(2) until done, retrying on EINTR.
bool WriteAll(int fd, std::span<const unsigned char> bytes) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    bytes = bytes.subspan(static_cast<std::size_t>(written));
  }
  return true;
}

}  // namespace

absl::Status WriteFileAtomically(const std::string& path, std::span<const unsigned char> bytes,
                                 const std::string& what) {
  // A symbolic link: the file it names is replaced (or created, for a link
  // to nothing yet), and the link stays (other readers may follow it). The
  // file keeps its permissions.
  std::string resolved = path;
  struct stat link_status, status;
  if (::lstat(path.c_str(), &link_status) == 0 && S_ISLNK(link_status.st_mode)) {
    std::error_code error;
    const std::filesystem::path canonical = std::filesystem::canonical(path, error);
    if (!error) {
      resolved = canonical.string();
    } else if (const std::filesystem::path named = std::filesystem::read_symlink(path, error);
               !error) {
      resolved = (named.is_absolute() ? named : DirectoryOf(path) / named).string();
    }
  }
  if (absl::Status usable = CheckWritablePath(resolved, what); !usable.ok()) return usable;
  const mode_t mode = ::stat(resolved.c_str(), &status) == 0 ? status.st_mode & 07777 : 0644;
  const std::filesystem::path target(resolved);
  const std::filesystem::path directory = DirectoryOf(resolved);
  RemoveStaleTemporaries(directory, target.filename().string());
  // The temporary file lives in the target's directory so that rename() is
  // atomic (same file system); mkstemp makes concurrent saves use distinct files.
  std::string temporary =
      (directory / (target.filename().string() + kTemporarySuffix + "XXXXXX")).string();
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) return ErrnoError(absl::StrCat("create a temporary file for ", what), path);
  // Locked until renamed, so that a later save can tell a temporary left by
  // a killed save (unlocked) from one being written right now.
  ::flock(fd, LOCK_EX | LOCK_NB);
  ::fchmod(fd, mode);  // mkstemp's 0600 would make the file private by accident
  const bool written = WriteAll(fd, bytes) && ::fsync(fd) == 0;
  if (!written) {
    absl::Status error = ErrnoError(absl::StrCat("write ", what), temporary);
    ::unlink(temporary.c_str());
    ::close(fd);
    return error;
  }
  if (::rename(temporary.c_str(), resolved.c_str()) != 0) {
    absl::Status error = ErrnoError(absl::StrCat("rename the temporary ", what, " onto"), path);
    ::unlink(temporary.c_str());
    ::close(fd);
    return error;
  }
  // The data were fsync'ed; close's own report (after the rename) changes nothing.
  ::close(fd);
  // Make the rename itself durable.
  const int directory_fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory_fd < 0) return ErrnoError(absl::StrCat("open the directory of ", what), path);
  const bool synced = ::fsync(directory_fd) == 0;
  ::close(directory_fd);
  if (!synced) return ErrnoError(absl::StrCat("fsync the directory of ", what), path);
  return absl::OkStatus();
}

absl::Status CheckWritablePath(const std::string& path, const std::string& what) {
  if (path.empty()) return absl::InvalidArgumentError(absl::StrCat(what, " path is empty"));
  struct stat status;
  if (::stat(path.c_str(), &status) == 0) {
    if (!S_ISREG(status.st_mode)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "cannot save ", what, " ", path,
          ": it exists and is not a regular file (a device, directory, socket or pipe)"));
    }
  } else if (errno != ENOENT) {
    return ErrnoError(absl::StrCat("inspect ", what), path);
  }
  const std::filesystem::path directory = DirectoryOf(path);
  if (::stat(directory.c_str(), &status) != 0) {
    return ErrnoError(absl::StrCat("save ", what, " into directory"), directory.string());
  }
  if (!S_ISDIR(status.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot save ", what, " ", path, ": ", directory.string(), " is not a directory"));
  }
  if (::access(directory.c_str(), W_OK | X_OK) != 0) {
    return ErrnoError(absl::StrCat("write a ", what, " into directory"), directory.string());
  }
  return absl::OkStatus();
}

}  // namespace rffstream
