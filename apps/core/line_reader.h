// File: apps/core/line_reader.h
//
// Buffered line reading from a file descriptor with a bound on line length: an
// over-long line is reported (and skipped up to its newline) instead of growing
// memory without limit. Another thread may stop a reader that waits for input.
#ifndef RFFSTREAM_APPS_LINE_READER_H_
#define RFFSTREAM_APPS_LINE_READER_H_

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace rffstream::app {

class LineReader {
 public:
  struct Line {
    // Without the '\n'. Empty when too_long. Valid until the next call.
    std::string_view text;
    // The line had more than max_line_bytes bytes; its text is dropped.
    bool too_long = false;
    // Its number in the input, from 1 (lines of other shares count too).
    std::int64_t number = 0;
  };

  // Which lines of a stream one of several readers keeps (data-parallel
  // learning): the first `shared_lines` (a header) all keep; the next
  // `first_reader_lines` (a warm-up window) only reader 0; the rest are
  // dealt round robin, line shared_lines + first_reader_lines + 1 + j to
  // reader j mod readers.
  struct Share {
    std::int64_t shared_lines = 0;
    std::int64_t first_reader_lines = 0;
    int readers = 1;
    int reader = 0;

    bool Keeps(std::int64_t number) const;
  };

  LineReader(int fd, std::size_t max_line_bytes);
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;
  ~LineReader();

  // The next line, or nullopt at the end of input, on a read error or after
  // Cancel() (then status() says which). A last line without '\n' is still a
  // line.
  std::optional<Line> Next();

  // The next line if the buffer already holds all of it, else nullopt: a
  // caller that must not wait for input asks this first.
  std::optional<Line> NextBuffered();

  // Makes a Next() that waits for input, and every later one, return nullopt
  // with a Cancelled status. Safe to call from any thread.
  void Cancel();

  // From now on, Next() and NextBuffered() return the lines of `share` only.
  void KeepShare(const Share& share) { share_ = share; }

  const absl::Status& status() const { return status_; }
  // True once the input's end was read (not a stop or a read error).
  bool reached_end() const { return at_end_ && status_.ok(); }

 private:
  std::optional<Line> NextOfAll();
  std::optional<Line> NextBufferedOfAll();
  // Appends what read() gives to the buffer; false at end of input, on an
  // error or once cancelled.
  bool Fill();
  // Waits until the input is readable; false once cancelled.
  bool WaitForInput();
  // Consumes the buffered line that ends at `newline`.
  Line TakeLineEndingAt(const char* newline, bool discarding);

  int fd_;
  int cancel_fd_;  // an eventfd, readable once Cancel() ran
  std::size_t max_line_bytes_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;  // first unread byte
  std::size_t end_ = 0;    // one past the last valid byte
  bool at_end_ = false;
  std::int64_t lines_ = 0;  // lines taken so far, this reader's or not
  Share share_;
  absl::Status status_;
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_LINE_READER_H_
