#include "line_reader.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace rffstream::app {
namespace {
constexpr std::size_t kMinimumBufferBytes = 1 << 16;
}  // namespace

LineReader::LineReader(int fd, std::size_t max_line_bytes)
    : fd_(fd),
      max_line_bytes_(max_line_bytes),
      buffer_(std::max(kMinimumBufferBytes, max_line_bytes + 2)) {}

bool LineReader::Fill() {
  if (at_end_) return false;
  if (begin_ > 0) {  // slide the partial line to the front
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  while (true) {
    const ssize_t got = ::read(fd_, buffer_.data() + end_, buffer_.size() - end_);
    if (got > 0) {
      end_ += static_cast<std::size_t>(got);
      return true;
    }
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) status_ = absl::DataLossError(absl::StrCat("read error: ", std::strerror(errno)));
    at_end_ = true;
    return false;
  }
}

std::optional<LineReader::Line> LineReader::Next() {
  std::size_t scanned = begin_;
  bool discarding = false;  // inside an over-long line, looking for its end
  while (true) {
    const char* newline = static_cast<const char*>(
        std::memchr(buffer_.data() + scanned, '\n', end_ - scanned));
    if (newline != nullptr) {
      const std::size_t position = static_cast<std::size_t>(newline - buffer_.data());
      const std::size_t length = position - begin_;
      begin_ = position + 1;
      if (discarding || length > max_line_bytes_) return Line{{}, true};
      return Line{std::string_view(buffer_.data() + position - length, length), false};
    }
    if (discarding || end_ - begin_ > max_line_bytes_) {
      discarding = true;
      begin_ = end_;  // drop what we have of the over-long line
    }
    scanned = end_;
    const std::size_t pending = end_ - begin_;
    if (!Fill()) {
      if (discarding) return Line{{}, true};
      if (end_ == begin_ || !status_.ok()) return std::nullopt;
      const std::string_view last(buffer_.data() + begin_, end_ - begin_);
      begin_ = end_;
      return Line{last, false};
    }
    scanned = begin_ + pending;  // Fill() may have moved the buffer
  }
}

}  // namespace rffstream::app
