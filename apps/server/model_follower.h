// File: apps/server/model_follower.h
//
// `serve --load=FILE --follow`: a serving replica that answers with the
// newest model a learner publishes. Checkpoints are always replaced whole
// (written aside, then renamed over the file), so a new file identity (inode,
// size, modification time) means a complete new model.
//
// A thread of its own watches the file (every kPollInterval) and loads a
// new one, so the serving thread never waits on a disk, and a path that
// turns into something hostile cannot stall it: only a regular file is read
// (a FIFO, a device such as /dev/zero or a directory is refused without
// being opened for reading, O_NONBLOCK for the rest), and only up to
// `max_bytes` (a file larger than any model allowed is refused unread). The
// serving thread takes a loaded model between requests (TakeNewest), so no
// request is answered by a half-loaded model and none is dropped. A file
// that cannot be loaded, or that the session refuses, leaves the model in
// use, is reported once and counted among the refusals, not the reloads.
#ifndef RFFSTREAM_APPS_MODEL_FOLLOWER_H_
#define RFFSTREAM_APPS_MODEL_FOLLOWER_H_

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/file_identity.h"
#include "rffstream/checkpoint.h"

namespace rffstream::app {

template <class Real>
class ModelFollower {
 public:
  static constexpr absl::Duration kPollInterval = absl::Milliseconds(50);

  // `path` holds the model in use now; `log` takes the refusals.
  ModelFollower(std::string path, double max_bytes, std::FILE* log)
      : path_(std::move(path)), max_bytes_(max_bytes), log_(log), loaded_at_(absl::Now()) {
    seen_ = FileIdentity::Of(path_);
    watcher_ = std::thread([this] { Watch(); });
  }
  ModelFollower(const ModelFollower&) = delete;
  ModelFollower& operator=(const ModelFollower&) = delete;
  ~ModelFollower() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    watcher_.join();
  }

  // A newly published model, loaded, or nullopt. The caller then says
  // whether it took it (Adopted) or not (Refused).
  std::optional<BasicCheckpoint<Real>> TakeNewest() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::optional<BasicCheckpoint<Real>> newest = std::move(newest_);
    newest_.reset();
    return newest;
  }
  void Adopted() {
    loaded_at_ = absl::Now();
    ++reloads_;
  }
  void Refused() { refusals_.fetch_add(1, std::memory_order_relaxed); }

  absl::Time loaded_at() const { return loaded_at_; }
  std::int64_t reloads() const { return reloads_; }
  std::int64_t refusals() const { return refusals_.load(std::memory_order_relaxed); }

 private:
  void Watch() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) {
      wake_.wait_for(lock, absl::ToChronoMilliseconds(kPollInterval));
      if (stopping_) break;
      lock.unlock();
      const FileIdentity current = FileIdentity::Of(path_);
      if (current.exists && !(current == seen_)) {
        seen_ = current;
        absl::StatusOr<BasicCheckpoint<Real>> loaded = Load();
        if (loaded.ok()) {
          lock.lock();
          newest_ = *std::move(loaded);  // a newer one replaces one not yet taken
          lock.unlock();
        } else {
          Refused();
          std::fprintf(log_, "rffstream serve: --follow: %s; still answering with the model in use\n",
                       std::string(loaded.status().message()).c_str());
        }
      }
      lock.lock();
    }
  }

  absl::StatusOr<BasicCheckpoint<Real>> Load() const {
    const int fd = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
      return absl::NotFoundError(absl::StrCat("cannot open ", path_, ": ", std::strerror(errno)));
    }
    struct stat status;
    std::string bytes;
    absl::Status read = absl::OkStatus();
    if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
      read = absl::FailedPreconditionError(
          absl::StrCat(path_, " is not a regular file (a device, FIFO or directory): not read"));
    } else if (static_cast<double>(status.st_size) > max_bytes_) {
      read = absl::ResourceExhaustedError(absl::StrCat(
          path_, " holds ", status.st_size, " bytes, more than any model allowed here (",
          static_cast<std::int64_t>(max_bytes_), ", --max_model_memory_mb): not read"));
    } else {
      bytes.resize(static_cast<std::size_t>(status.st_size));
      std::size_t got = 0;
      while (got < bytes.size()) {
        const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
      }
      bytes.resize(got);  // a shorter file is caught by the checksum
    }
    ::close(fd);
    if (!read.ok()) return read;
    std::istringstream in(std::move(bytes));
    return ReadCheckpoint<Real>(in, path_);
  }

  const std::string path_;
  const double max_bytes_;
  std::FILE* const log_;
  // The serving thread's.
  absl::Time loaded_at_;
  std::int64_t reloads_ = 0;
  // The watcher's.
  FileIdentity seen_;
  std::atomic<std::int64_t> refusals_{0};
  // Shared, under mutex_.
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::optional<BasicCheckpoint<Real>> newest_;
  std::thread watcher_;
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_MODEL_FOLLOWER_H_
