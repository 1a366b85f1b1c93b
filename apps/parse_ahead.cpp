#include "parse_ahead.h"

namespace rffstream::app {

ParseAhead::ParseAhead(LineReader& reader, const LineParser& parser,
                       std::int64_t first_line_number)
    : reader_(reader), parser_(parser), next_line_number_(first_line_number) {
  for (Batch& batch : batches_) {
    batch.num_inputs_ = parser.num_inputs();
    batch.num_targets_ = parser.num_targets();
    batch.lines_.resize(kLinesPerBatch);
    batch.inputs_.resize(static_cast<std::size_t>(kLinesPerBatch) * parser.num_inputs());
    batch.targets_.resize(static_cast<std::size_t>(kLinesPerBatch) * parser.num_targets());
  }
  reading_thread_ = std::thread([this] { ReadAll(); });
}

ParseAhead::~ParseAhead() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  reader_.Cancel();
  reading_thread_.join();
}

bool ParseAhead::Fill(Batch& batch) {
  batch.size_ = 0;
  while (batch.size_ < kLinesPerBatch) {
    // Only the first line may wait for input: a partial batch goes out rather
    // than keep its lines from the learner.
    std::optional<LineReader::Line> line = batch.size_ == 0 ? reader_.Next() : reader_.NextBuffered();
    if (!line.has_value()) break;
    const int i = batch.size_++;
    ParsedLine& parsed = batch.lines_[static_cast<std::size_t>(i)];
    ParseLine(parser_, *line, batch.MutableRow(batch.inputs_, batch.num_inputs_, i),
              batch.MutableRow(batch.targets_, batch.num_targets_, i), parsed);
    parsed.line_number = next_line_number_++;
  }
  return batch.size_ > 0;
}

void ParseAhead::ReadAll() {
  for (std::int64_t index = 0;; ++index) {
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || index - released_ < kBatches; });
      if (stopping_) return;
    }
    const bool filled = Fill(batches_[index % kBatches]);
    {
      std::lock_guard lock(mutex_);
      if (filled) {
        ++produced_;
      } else {
        input_ended_ = true;
      }
    }
    changed_.notify_all();
    if (!filled) return;
  }
}

bool ParseAhead::Ready() {
  std::lock_guard lock(mutex_);
  return input_ended_ || produced_ > released_ + (holding_ ? 1 : 0);
}

const ParseAhead::Batch* ParseAhead::Next() {
  std::unique_lock lock(mutex_);
  if (holding_) {
    holding_ = false;
    ++released_;
    changed_.notify_all();
  }
  changed_.wait(lock, [&] { return input_ended_ || produced_ > released_; });
  if (produced_ == released_) return nullptr;
  holding_ = true;
  return &batches_[released_ % kBatches];
}

}  // namespace rffstream::app
