// File: apps/line_reader.h
//
// Buffered line reading from a file descriptor with a bound on line length: an
// over-long line is reported (and skipped up to its newline) instead of growing
// memory without limit.
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
  };

  LineReader(int fd, std::size_t max_line_bytes);

  // The next line, or nullopt at the end of input or on a read error (then
  // status() says which). A last line without '\n' is still a line.
  std::optional<Line> Next();

  const absl::Status& status() const { return status_; }
  std::size_t max_line_bytes() const { return max_line_bytes_; }

 private:
  // Appends what read() gives to the buffer; false at end of input or error.
  bool Fill();

  int fd_;
  std::size_t max_line_bytes_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;  // first unread byte
  std::size_t end_ = 0;    // one past the last valid byte
  bool at_end_ = false;
  absl::Status status_;
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_LINE_READER_H_
