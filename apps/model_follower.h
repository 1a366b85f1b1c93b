// File: apps/model_follower.h
//
// `serve --load=FILE --follow`: a serving replica that answers with the
// newest model a learner publishes. Checkpoints are always replaced whole
// (written aside, then renamed over the file), so a new file identity (inode,
// size, modification time) means a complete new model. The session polls
// between requests, at most every kPollInterval: a replaced file is loaded
// first and swapped in only once loaded, so no request is answered by a
// half-loaded model and none is dropped (they wait in their sockets during
// the load). A file that cannot be loaded leaves the model in use, and is
// reported once.
#ifndef RFFSTREAM_APPS_MODEL_FOLLOWER_H_
#define RFFSTREAM_APPS_MODEL_FOLLOWER_H_

#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "rffstream/checkpoint.h"

namespace rffstream::app {

template <class Real>
class ModelFollower {
 public:
  static constexpr absl::Duration kPollInterval = absl::Milliseconds(50);

  // `path` holds the model in use now.
  explicit ModelFollower(std::string path) : path_(std::move(path)) {
    identity_ = Identity();
    loaded_at_ = absl::Now();
  }

  // A newly published model, loaded, or nullopt.
  std::optional<BasicCheckpoint<Real>> Poll(std::FILE* log) {
    const absl::Time now = absl::Now();
    if (now - last_poll_ < kPollInterval) return std::nullopt;
    last_poll_ = now;
    const FileIdentity current = Identity();
    if (!current.exists || current == identity_ || current == refused_) return std::nullopt;
    absl::StatusOr<BasicCheckpoint<Real>> loaded = LoadCheckpoint<Real>(path_);
    if (!loaded.ok()) {
      refused_ = current;
      std::fprintf(log, "rffstream serve: --follow: %s; still answering with the model loaded %s\n",
                   std::string(loaded.status().message()).c_str(),
                   absl::FormatTime(loaded_at_).c_str());
      return std::nullopt;
    }
    identity_ = current;
    loaded_at_ = absl::Now();
    ++reloads_;
    return *std::move(loaded);
  }

  absl::Time loaded_at() const { return loaded_at_; }
  std::int64_t reloads() const { return reloads_; }

 private:
  struct FileIdentity {
    bool exists = false;
    dev_t device = 0;
    ino_t inode = 0;
    off_t size = 0;
    std::int64_t modified_ns = 0;
    bool operator==(const FileIdentity&) const = default;
  };

  FileIdentity Identity() const {
    struct stat status;
    if (::stat(path_.c_str(), &status) != 0) return {};
    return {true, status.st_dev, status.st_ino, status.st_size,
            static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1000000000 + status.st_mtim.tv_nsec};
  }

  const std::string path_;
  FileIdentity identity_;
  FileIdentity refused_;
  absl::Time loaded_at_;
  absl::Time last_poll_ = absl::InfinitePast();
  std::int64_t reloads_ = 0;
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_MODEL_FOLLOWER_H_
