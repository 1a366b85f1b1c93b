// File: apps/checkpoint_schedule.h
//
// When `rffstream learn` saves its checkpoint: every N learned samples, every
// T seconds, or both (whichever comes first), and once at the end.
#ifndef RFFSTREAM_APPS_CHECKPOINT_SCHEDULE_H_
#define RFFSTREAM_APPS_CHECKPOINT_SCHEDULE_H_

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
    if (every_samples_ > 0 && samples_learned - last_saved_samples_ >= every_samples_) return true;
    return interval_ > absl::ZeroDuration() && absl::Now() - last_saved_time_ >= interval_;
  }

  void MarkSaved(std::int64_t samples_learned) {
    last_saved_samples_ = samples_learned;
    last_saved_time_ = absl::Now();
  }

 private:
  std::string path_;
  std::int64_t every_samples_;
  absl::Duration interval_;
  std::int64_t last_saved_samples_ = 0;
  absl::Time last_saved_time_ = absl::Now();
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_CHECKPOINT_SCHEDULE_H_
