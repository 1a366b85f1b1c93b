// File: apps/parse_ahead.h
//
// Reads and parses input lines on a thread of its own, ahead of the thread
// that learns, so that parsing and learning overlap (on two cores the input's
// throughput is that of the slower of the two, not of their sum). Lines come
// in batches, in input order. A batch is handed over when it is full or when
// no further line is ready, so a live stream's lines are never held back
// waiting for more input.
#ifndef RFFSTREAM_APPS_PARSE_AHEAD_H_
#define RFFSTREAM_APPS_PARSE_AHEAD_H_

#include <array>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "line_reader.h"
#include "parsed_line.h"
#include "rffstream/line_parser.h"

namespace rffstream::app {

class ParseAhead {
 public:
  class Batch {
   public:
    int size() const { return size_; }
    const ParsedLine& line(int i) const { return lines_[static_cast<std::size_t>(i)]; }
    std::span<const double> inputs(int i) const { return Row(inputs_, num_inputs_, i); }
    std::span<const double> targets(int i) const { return Row(targets_, num_targets_, i); }

   private:
    friend class ParseAhead;
    static std::span<const double> Row(const std::vector<double>& values, int width, int i) {
      return std::span<const double>(values).subspan(static_cast<std::size_t>(i) * width, width);
    }
    std::span<double> MutableRow(std::vector<double>& values, int width, int i) {
      return std::span<double>(values).subspan(static_cast<std::size_t>(i) * width, width);
    }

    int size_ = 0;
    int num_inputs_ = 0;
    int num_targets_ = 0;
    std::vector<ParsedLine> lines_;
    std::vector<double> inputs_;
    std::vector<double> targets_;
  };

  // Starts reading `reader` with `parser` (both used only by the reading
  // thread until this object is destroyed); the first line read is numbered
  // `first_line_number`.
  ParseAhead(LineReader& reader, const LineParser& parser, std::int64_t first_line_number);
  ParseAhead(const ParseAhead&) = delete;
  ParseAhead& operator=(const ParseAhead&) = delete;
  // Stops reading (also when the input is a pipe that is still open) and
  // waits for the reading thread.
  ~ParseAhead();

  // True when Next() will not wait.
  bool Ready();
  // The next batch, valid until the next call; nullptr at the end of input,
  // when the reader's status() says why reading ended.
  const Batch* Next();

 private:
  static constexpr int kBatches = 4;
  static constexpr int kLinesPerBatch = 256;

  void ReadAll();
  // Fills `batch`; false when the input ended before its first line.
  bool Fill(Batch& batch);

  LineReader& reader_;
  const LineParser& parser_;
  std::int64_t next_line_number_;
  std::array<Batch, kBatches> batches_;

  std::mutex mutex_;
  std::condition_variable changed_;
  std::int64_t produced_ = 0;  // batches filled
  std::int64_t released_ = 0;  // batches the learner is done with
  bool holding_ = false;       // the learner holds batch released_ % kBatches
  bool input_ended_ = false;
  bool stopping_ = false;
  std::thread reading_thread_;  // last: starts once the rest is set up
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_PARSE_AHEAD_H_
