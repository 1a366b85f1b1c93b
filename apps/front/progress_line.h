// File: apps/front/progress_line.h
//
// The one updating line `learn` shows while it reads a long file: how much
// of the file is read, samples a second and the time left, redrawn in place
// a few times a second. Only when standard error is a terminal and the
// input a regular file (a pipe has no size; a log file wants no carriage
// returns); cleared before anything else is written to the terminal.
#ifndef RFFSTREAM_APPS_PROGRESS_LINE_H_
#define RFFSTREAM_APPS_PROGRESS_LINE_H_

#include <cstdint>
#include <cstdio>

#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace rffstream::app {

class ProgressLine {
 public:
  // Shows progress through the file open at `input_fd` on `out`, when
  // `wanted` and the conditions above hold.
  ProgressLine(std::FILE* out, int input_fd, bool wanted);

  bool enabled() const { return size_ > 0; }
  // After each answered sample; redraws at most every kRedrawInterval.
  void Update(std::int64_t samples) {
    if (size_ > 0 && ++calls_ % kCallsBetweenClockReads == 0) Redraw(samples);
  }
  // Erases the line (before other output, and at the end).
  void Clear();

  static constexpr absl::Duration kRedrawInterval = absl::Milliseconds(250);

 private:
  static constexpr std::int64_t kCallsBetweenClockReads = 512;
  void Redraw(std::int64_t samples);

  std::FILE* out_;
  int input_fd_;
  std::int64_t size_ = 0;  // 0: disabled
  std::int64_t calls_ = 0;
  bool shown_ = false;
  absl::Time start_ = absl::Now();
  absl::Time last_redraw_ = absl::InfinitePast();
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_PROGRESS_LINE_H_
