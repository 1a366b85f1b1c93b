#include "front/progress_line.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>

namespace rffstream::app {

ProgressLine::ProgressLine(std::FILE* out, int input_fd, bool wanted)
    : out_(out), input_fd_(input_fd) {
  struct stat input;
  if (wanted && ::isatty(::fileno(out)) == 1 && ::fstat(input_fd, &input) == 0 &&
      S_ISREG(input.st_mode)) {
    size_ = static_cast<std::int64_t>(input.st_size);
  }
}

void ProgressLine::Redraw(std::int64_t samples) {
  const absl::Time now = absl::Now();
  if (now - last_redraw_ < kRedrawInterval) return;
  last_redraw_ = now;
  // How far the reader has read (it reads ahead of learning by a buffer).
  const off_t position = ::lseek(input_fd_, 0, SEEK_CUR);
  if (position < 0) return;
  const double fraction =
      std::min(1.0, static_cast<double>(position) / static_cast<double>(size_));
  const double seconds = absl::ToDoubleSeconds(now - start_);
  const double rate = seconds > 0 ? static_cast<double>(samples) / seconds : 0.0;
  const double left = fraction > 0 ? seconds * (1.0 - fraction) / fraction : 0.0;
  std::fprintf(out_, "\r\033[K%5.1f%% of the file, %" PRId64 " samples, %.0f samples/s, %.0f s left",
               100.0 * fraction, samples, rate, left);
  std::fflush(out_);
  shown_ = true;
}

void ProgressLine::Clear() {
  if (!shown_) return;
  std::fputs("\r\033[K", out_);
  std::fflush(out_);
  shown_ = false;
}

}  // namespace rffstream::app
