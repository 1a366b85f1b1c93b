#include "core/gzip_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace rffstream::app {

bool GzipInput::IsGzip(const std::string& path) {
  if (absl::EndsWith(path, ".gz")) return true;
  // Or a regular file that starts as gzip does, whatever its name.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  struct stat status {};
  unsigned char magic[2] = {0, 0};
  const bool gzip = ::fstat(fd, &status) == 0 && S_ISREG(status.st_mode) &&
                    ::pread(fd, magic, sizeof magic, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  ::close(fd);
  return gzip;
}

absl::StatusOr<std::unique_ptr<GzipInput>> GzipInput::Open(const std::string& path) {
  const int file_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (file_fd < 0) {
    return absl::NotFoundError(
        absl::StrCat("cannot open input file ", path, ": ", std::strerror(errno)));
  }
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) {
    const int error = errno;
    ::close(file_fd);
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot decompress ", path, ": no pipe: ", std::strerror(error)));
  }
  return std::unique_ptr<GzipInput>(new GzipInput(path, file_fd, ends[0], ends[1]));
}

GzipInput::GzipInput(std::string path, int file_fd, int read_fd, int write_fd)
    : path_(std::move(path)), read_fd_(read_fd) {
  thread_ = std::thread([this, file_fd, write_fd] { Decompress(file_fd, write_fd); });
}

GzipInput::~GzipInput() {
  ::close(read_fd_);  // a write still pending fails with EPIPE (SIGPIPE is ignored)
  if (thread_.joinable()) thread_.join();
}

void GzipInput::Decompress(int file_fd, int write_fd) {
  absl::Status status;
  gzFile file = ::gzdopen(file_fd, "rb");
  if (file == nullptr) {
    ::close(file_fd);
    status = absl::ResourceExhaustedError(absl::StrCat(path_, ": cannot start zlib"));
  }
  std::vector<char> buffer(1 << 16);
  while (status.ok()) {
    const int got = ::gzread(file, buffer.data(), static_cast<unsigned>(buffer.size()));
    if (got < 0 || (got == 0 && !::gzeof(file))) {
      int code = 0;
      const char* message = ::gzerror(file, &code);
      status = absl::DataLossError(absl::StrCat(path_, ": corrupt gzip data (", message, ")"));
      break;
    }
    if (got == 0) break;
    // gzread stops at the end of what the file holds: a file cut short
    // reads as its end unless zlib says the last member was incomplete.
    for (int done = 0; done < got;) {
      const ssize_t written = ::write(write_fd, buffer.data() + done, static_cast<size_t>(got - done));
      if (written < 0 && errno == EINTR) continue;
      if (written < 0) {  // the reader is gone: nothing more is wanted
        ::close(write_fd);
        ::gzclose(file);
        return;
      }
      done += static_cast<int>(written);
    }
  }
  if (file != nullptr) {
    int code = Z_OK;
    ::gzerror(file, &code);
    if (status.ok() && code == Z_BUF_ERROR) {
      status = absl::DataLossError(
          absl::StrCat(path_, ": the gzip data ends early (a truncated file)"));
    }
    ::gzclose(file);
  }
  ::close(write_fd);
  status_ = std::move(status);  // read after the join
}

absl::Status GzipInput::Finish() {
  if (thread_.joinable()) thread_.join();
  return status_;
}

}  // namespace rffstream::app
