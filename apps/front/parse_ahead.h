// File: apps/front/parse_ahead.h
//
// Reads and parses input lines on a thread of its own, ahead of the thread
// that learns, so that the two overlap: on two cores the stream moves at the
// speed of the slower one, not of both in turn. Once the learner exists
// (MapWith), the reading thread also maps each sample to its feature row, so
// the learning thread is left with the RLS update alone. Lines come in
// batches, in input order. A batch is handed over when it is full or when no
// further line is ready, so a live stream's lines never wait for more input.
#ifndef RFFSTREAM_APPS_PARSE_AHEAD_H_
#define RFFSTREAM_APPS_PARSE_AHEAD_H_

#include <array>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "core/line_reader.h"
#include "rffstream/stream/parsed_line.h"
#include "rffstream/learner.h"
#include "rffstream/line_parser.h"

namespace rffstream::app {

template <class Real>
class ParseAhead {
 public:
  class Batch {
   public:
    int size() const { return size_; }
    const ParsedLine& line(int i) const { return lines_[static_cast<std::size_t>(i)]; }
    std::span<const double> inputs(int i) const {
      return Row(std::span<const double>(inputs_), num_inputs_, i);
    }
    std::span<const double> targets(int i) const {
      return Row(std::span<const double>(targets_), num_targets_, i);
    }
    // The feature row of a kValues line, or empty when the batch was read
    // before MapWith().
    std::span<const Real> feature_row(int i) const {
      return Row(std::span<const Real>(feature_rows_), row_length_, i);
    }

   private:
    friend class ParseAhead;
    template <class T>
    static std::span<T> Row(std::span<T> values, int width, int i) {
      return values.subspan(static_cast<std::size_t>(i) * width, width);
    }

    int size_ = 0;
    int num_inputs_ = 0;
    int num_targets_ = 0;
    int row_length_ = 0;  // 0 while not mapped
    std::vector<ParsedLine> lines_;
    std::vector<double> inputs_;
    std::vector<double> targets_;
    std::vector<Real> feature_rows_;
  };

  // Starts reading `reader` with `parser` (both used only by the reading
  // thread until this object is destroyed); lines keep the reader's numbers.
  ParseAhead(LineReader& reader, const LineParser& parser);
  ParseAhead(const ParseAhead&) = delete;
  ParseAhead& operator=(const ParseAhead&) = delete;
  // Stops reading (also when the input is a pipe that is still open) and
  // waits for the reading thread.
  ~ParseAhead();

  // From the next batch on, lines also come with their feature rows, mapped
  // by `learner` (which must outlive this object, or StopMapping(); only its
  // const MapRow() runs on the reading thread).
  void MapWith(const BasicLearner<Real>& learner);
  // The learner's feature map is about to change: returns once the reading
  // thread no longer maps with it, every row mapped so far dropped (the
  // batches not yet learned, and the rest of the one held, come without
  // rows). Never waits for input: the reading thread takes the learner
  // only once a batch's first line is there. MapWith() starts again.
  void StopMapping();

  // True when Next() will not wait.
  bool Ready();
  // The next batch, valid until the next call; nullptr at the end of input,
  // when the reader's status() says why reading ended.
  const Batch* Next();

 private:
  // Every batch handed over costs a wake-up of the other thread: large
  // batches make them rare (float64, D=256: 64 KiB of rows a batch gave
  // 142k samples/s, 1 MiB 158k/s).
  static constexpr int kBatches = 4;
  static constexpr int kMaxLinesPerBatch = 512;
  // Feature rows are large for large D: a batch holds about this many bytes
  // of them, and at least kMinLinesPerBatch rows.
  static constexpr std::size_t kFeatureRowBytesPerBatch = 1 << 20;
  static constexpr int kMinLinesPerBatch = 8;
  // Wide inputs (a libsvm file of 10⁵ features) likewise: a batch holds
  // about this many bytes of dense inputs, so four batches never hold
  // 4 · 512 rows of them (1.6 GB at 10⁵ inputs).
  static constexpr std::size_t kInputBytesPerBatch = 4 << 20;

  void ReadAll();
  // Fills `batch`; false when the input ended before its first line.
  bool Fill(Batch& batch);

  LineReader& reader_;
  const LineParser& parser_;
  std::array<Batch, kBatches> batches_;
  const BasicLearner<Real>* mapper_ = nullptr;  // guarded by mutex_
  const int max_lines_;  // lines a batch holds at most (fewer for wide inputs)

  std::mutex mutex_;
  std::condition_variable changed_;
  std::int64_t produced_ = 0;  // batches filled
  std::int64_t released_ = 0;  // batches the learner is done with
  bool holding_ = false;       // the learner holds batch released_ % kBatches
  bool mapping_ = false;       // the reading thread maps a batch with mapper_
  bool input_ended_ = false;
  bool stopping_ = false;
  std::thread reading_thread_;  // last: starts once the rest is set up
};

extern template class ParseAhead<float>;
extern template class ParseAhead<double>;

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_PARSE_AHEAD_H_
