#include "core/line_reader.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace rffstream::app {
namespace {
constexpr std::size_t kMinimumBufferBytes = 1 << 16;
}  // namespace

LineReader::LineReader(int fd, std::size_t max_line_bytes)
    : fd_(fd),
      cancel_fd_(::eventfd(0, EFD_CLOEXEC)),
      max_line_bytes_(max_line_bytes),
      buffer_(std::max(kMinimumBufferBytes, max_line_bytes + 2)) {}

LineReader::~LineReader() {
  if (cancel_fd_ >= 0) ::close(cancel_fd_);
}

void LineReader::Cancel() {
  if (cancel_fd_ < 0) return;
  const std::uint64_t one = 1;
  // Adding 1 to an eventfd's counter fails only on overflow, after 2^64 - 2 calls.
  [[maybe_unused]] const ssize_t written = ::write(cancel_fd_, &one, sizeof(one));
}

bool LineReader::WaitForInput() {
  if (cancel_fd_ < 0) return true;  // no eventfd: reading cannot be cancelled
  pollfd watched[2] = {{fd_, POLLIN, 0}, {cancel_fd_, POLLIN, 0}};
  while (::poll(watched, 2, -1) < 0) {
    if (errno != EINTR) return true;  // let read() report the problem
  }
  if (watched[1].revents == 0) return true;
  status_ = absl::CancelledError("reading was stopped");
  return false;
}

bool LineReader::Fill() {
  if (at_end_) return false;
  if (begin_ > 0) {  // slide the partial line to the front
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  while (WaitForInput()) {
    const ssize_t got = ::read(fd_, buffer_.data() + end_, buffer_.size() - end_);
    if (got > 0) {
      end_ += static_cast<std::size_t>(got);
      return true;
    }
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) status_ = absl::DataLossError(absl::StrCat("read error: ", std::strerror(errno)));
    break;
  }
  at_end_ = true;
  return false;
}

LineReader::Line LineReader::TakeLineEndingAt(const char* newline, bool discarding) {
  const std::size_t position = static_cast<std::size_t>(newline - buffer_.data());
  const std::size_t length = position - begin_;
  const char* text = buffer_.data() + begin_;
  begin_ = position + 1;
  if (discarding || length > max_line_bytes_) return Line{{}, true, 0};
  return Line{std::string_view(text, length), false, 0};
}

bool LineReader::Share::Keeps(std::int64_t number) const {
  if (number <= shared_lines) return true;
  if (number <= shared_lines + first_reader_lines) return reader == 0;
  return (number - shared_lines - first_reader_lines - 1) % readers == reader;
}

std::optional<LineReader::Line> LineReader::Next() {
  while (std::optional<Line> line = NextOfAll()) {
    line->number = ++lines_;
    if (share_.Keeps(line->number)) return line;
  }
  return std::nullopt;
}

std::optional<LineReader::Line> LineReader::NextBuffered() {
  while (std::optional<Line> line = NextBufferedOfAll()) {
    line->number = ++lines_;
    if (share_.Keeps(line->number)) return line;
  }
  return std::nullopt;
}

std::optional<LineReader::Line> LineReader::NextBufferedOfAll() {
  const char* newline =
      static_cast<const char*>(std::memchr(buffer_.data() + begin_, '\n', end_ - begin_));
  if (newline == nullptr) return std::nullopt;
  return TakeLineEndingAt(newline, /*discarding=*/false);
}

std::optional<LineReader::Line> LineReader::NextOfAll() {
  if (std::optional<Line> line = NextBufferedOfAll()) return line;
  bool discarding = false;  // inside an over-long line, looking for its end
  while (true) {
    // [begin_, end_) holds no newline here.
    if (discarding || end_ - begin_ > max_line_bytes_) {
      discarding = true;
      begin_ = end_;  // drop what we have of the over-long line
    }
    const std::size_t searched = end_ - begin_;
    if (!Fill()) {
      if (discarding) return Line{{}, true, 0};
      if (end_ == begin_ || !status_.ok()) return std::nullopt;
      const std::string_view last(buffer_.data() + begin_, end_ - begin_);
      begin_ = end_;
      return Line{last, false, 0};
    }
    const char* newline = static_cast<const char*>(
        std::memchr(buffer_.data() + begin_ + searched, '\n', end_ - begin_ - searched));
    if (newline != nullptr) return TakeLineEndingAt(newline, discarding);
  }
}

}  // namespace rffstream::app
