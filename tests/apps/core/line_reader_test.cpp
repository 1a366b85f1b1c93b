// Reading lines from a real pipe: lengths bounded, the last line without a
// newline kept, a waiting reader cancelled from another thread.
#include "core/line_reader.h"

#include <unistd.h>

#include <string>
#include <vector>
#include <thread>

#include "catch2/catch.hpp"

namespace rffstream::app {
namespace {

// A pipe whose write end is written (and closed unless `keep_open`) at once.
struct Pipe {
  explicit Pipe(const std::string& bytes, bool keep_open = false) {
    REQUIRE(::pipe(fds) == 0);
    REQUIRE(::write(fds[1], bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
    if (!keep_open) CloseWriter();
  }
  ~Pipe() {
    CloseWriter();
    ::close(fds[0]);
  }
  void CloseWriter() {
    if (fds[1] >= 0) ::close(fds[1]);
    fds[1] = -1;
  }
  int fds[2] = {-1, -1};
};

TEST_CASE("Lines come without their newline, the last one without one too", "[line_reader]") {
  Pipe pipe("a,b\r\n\nlast");
  LineReader reader(pipe.fds[0], 100);
  std::optional<LineReader::Line> line = reader.Next();
  REQUIRE(line.has_value());
  CHECK(line->text == "a,b\r");  // a carriage return is the parser's to drop
  line = reader.Next();
  REQUIRE(line.has_value());
  CHECK(line->text.empty());
  line = reader.Next();
  REQUIRE(line.has_value());
  CHECK(line->text == "last");
  CHECK_FALSE(reader.Next().has_value());
  CHECK(reader.status().ok());
}

TEST_CASE("Readers of shares keep the header, the first one the window, the rest dealt",
          "[line_reader]") {
  std::string input;
  for (int n = 1; n <= 12; ++n) input += std::to_string(n) + "\n";
  for (int reader_index = 0; reader_index < 3; ++reader_index) {
    Pipe pipe(input);
    LineReader reader(pipe.fds[0], 100);
    reader.KeepShare({.shared_lines = 1, .first_reader_lines = 3, .readers = 3, .reader = reader_index});
    std::string kept;
    while (std::optional<LineReader::Line> line = reader.Next()) {
      CHECK(line->text == std::to_string(line->number));  // numbered in the whole input
      kept += std::string(line->text) + " ";
    }
    INFO("reader " << reader_index);
    // Line 1 for all, 2-4 for reader 0, then 5, 6, 7, ... dealt 0, 1, 2, 0, ...
    CHECK(kept == std::vector<std::string>{"1 2 3 4 5 8 11 ", "1 6 9 12 ", "1 7 10 "}[reader_index]);
  }
}

TEST_CASE("A line longer than the limit is reported, skipped, and the next one read",
          "[line_reader]") {
  Pipe pipe(std::string(5000, 'x') + "\nshort\n");
  LineReader reader(pipe.fds[0], 64);
  std::optional<LineReader::Line> line = reader.Next();
  REQUIRE(line.has_value());
  CHECK(line->too_long);
  CHECK(line->text.empty());
  line = reader.Next();
  REQUIRE(line.has_value());
  CHECK_FALSE(line->too_long);
  CHECK(line->text == "short");
}

TEST_CASE("A reader waiting on an open pipe is cancelled from another thread", "[line_reader]") {
  Pipe pipe("first\n", /*keep_open=*/true);
  LineReader reader(pipe.fds[0], 100);
  REQUIRE(reader.Next().has_value());
  CHECK_FALSE(reader.NextBuffered().has_value());  // nothing buffered: would wait
  std::thread canceller([&reader] { reader.Cancel(); });
  CHECK_FALSE(reader.Next().has_value());
  canceller.join();
  CHECK(reader.status().code() == absl::StatusCode::kCancelled);
}

}  // namespace
}  // namespace rffstream::app
