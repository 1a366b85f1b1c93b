// File: apps/front/checkpoint_schedule.h
//
// When `rffstream learn` saves its checkpoint: every N learned samples, every
// T seconds, or both (whichever comes first), and once at the end. After a
// failed save (a full disk) the next try waits twice as long as the one
// before, up to 64 periods, instead of failing again on every sample.
#ifndef RFFSTREAM_APPS_CHECKPOINT_SCHEDULE_H_
#define RFFSTREAM_APPS_CHECKPOINT_SCHEDULE_H_

#include <algorithm>
#include <cstdint>
#include <string>

#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace rffstream::app {

class CheckpointSchedule {
 public:
  // An empty path disables saving; every_samples 0 and a zero interval
  // disable the periodic saves.
  CheckpointSchedule(std::string path, std::int64_t every_samples, absl::Duration interval)
      : path_(std::move(path)), every_samples_(every_samples), interval_(interval) {}

  bool enabled() const { return !path_.empty(); }
  const std::string& path() const { return path_; }

  // Whether a periodic save is due after `samples_learned` samples.
  bool Due(std::int64_t samples_learned) const {
    if (!enabled()) return false;
    if (every_samples_ > 0 &&
        samples_learned - last_saved_samples_ >= every_samples_ * backoff_) {
      return true;
    }
    return interval_ > absl::ZeroDuration() &&
           absl::Now() - last_saved_time_ >= interval_ * static_cast<double>(backoff_);
  }

  void MarkSaved(std::int64_t samples_learned) {
    last_saved_samples_ = samples_learned;
    last_saved_time_ = absl::Now();
    backoff_ = 1;
  }

  // The save due now failed: the next try waits twice as long.
  void MarkFailed(std::int64_t samples_learned) {
    last_saved_samples_ = samples_learned;
    last_saved_time_ = absl::Now();
    backoff_ = std::min<std::int64_t>(backoff_ * 2, kMaxBackoff);
  }

 private:
  static constexpr std::int64_t kMaxBackoff = 64;

  std::string path_;
  std::int64_t every_samples_;
  absl::Duration interval_;
  std::int64_t last_saved_samples_ = 0;
  absl::Time last_saved_time_ = absl::Now();
  std::int64_t backoff_ = 1;  // periods between tries: 1 after a success
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_CHECKPOINT_SCHEDULE_H_
