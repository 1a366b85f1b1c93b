#include "front/parse_ahead.h"

#include <algorithm>

namespace rffstream::app {

template <class Real>
ParseAhead<Real>::ParseAhead(LineReader& reader, const LineParser& parser)
    : reader_(reader),
      parser_(parser),
      max_lines_(std::clamp(static_cast<int>(kInputBytesPerBatch /
                                             (sizeof(double) * std::max(parser.num_inputs(), 1))),
                            kMinLinesPerBatch, kMaxLinesPerBatch)) {
  for (Batch& batch : batches_) {
    batch.num_inputs_ = parser.num_inputs();
    batch.num_targets_ = parser.num_targets();
    batch.lines_.resize(static_cast<std::size_t>(max_lines_));
    batch.inputs_.resize(static_cast<std::size_t>(max_lines_) * parser.num_inputs());
    batch.targets_.resize(static_cast<std::size_t>(max_lines_) * parser.num_targets());
  }
  reading_thread_ = std::thread([this] { ReadAll(); });
}

template <class Real>
ParseAhead<Real>::~ParseAhead() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  reader_.Cancel();
  reading_thread_.join();
}

template <class Real>
void ParseAhead<Real>::MapWith(const BasicLearner<Real>& learner) {
  std::lock_guard lock(mutex_);
  mapper_ = &learner;
}

template <class Real>
void ParseAhead<Real>::StopMapping() {
  std::unique_lock lock(mutex_);
  mapper_ = nullptr;
  changed_.wait(lock, [&] { return !mapping_; });
  // The batch being filled now, if any, has none (mapper_ was null).
  for (Batch& batch : batches_) batch.row_length_ = 0;
}

template <class Real>
bool ParseAhead<Real>::Fill(Batch& batch) {
  // Only the first line may wait for input: a partial batch goes out rather
  // than keep its lines from the learner.
  std::optional<LineReader::Line> line = reader_.Next();
  const BasicLearner<Real>* mapper = nullptr;
  {
    std::lock_guard lock(mutex_);
    mapper = mapper_;
    mapping_ = mapper != nullptr;
    batch.row_length_ = mapper != nullptr ? mapper->row_length() : 0;
  }
  int capacity = max_lines_;
  if (mapper != nullptr) {
    const std::size_t row_bytes = sizeof(Real) * static_cast<std::size_t>(batch.row_length_);
    capacity = std::clamp(static_cast<int>(kFeatureRowBytesPerBatch / row_bytes),
                          kMinLinesPerBatch, max_lines_);
    batch.feature_rows_.resize(static_cast<std::size_t>(capacity) * batch.row_length_);
  }
  const std::span<double> inputs(batch.inputs_), targets(batch.targets_);
  const std::span<Real> feature_rows(batch.feature_rows_);
  batch.size_ = 0;
  while (line.has_value()) {
    const int i = batch.size_++;
    ParsedLine& parsed = batch.lines_[static_cast<std::size_t>(i)];
    const std::span<double> x = Batch::Row(inputs, batch.num_inputs_, i);
    ParseLine(parser_, line->text, line->too_long, x, Batch::Row(targets, batch.num_targets_, i),
              parsed);
    parsed.line_number = line->number;
    if (mapper != nullptr && parsed.kind == ParsedLine::Kind::kValues) {
      mapper->MapRow(x, Batch::Row(feature_rows, batch.row_length_, i));
    }
    if (batch.size_ == capacity) break;
    line = reader_.NextBuffered();
  }
  return batch.size_ > 0;
}

template <class Real>
void ParseAhead<Real>::ReadAll() {
  for (std::int64_t index = 0;; ++index) {
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || index - released_ < kBatches; });
      if (stopping_) return;
    }
    const bool filled = Fill(batches_[index % kBatches]);
    {
      std::lock_guard lock(mutex_);
      mapping_ = false;
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

template <class Real>
bool ParseAhead<Real>::Ready() {
  std::lock_guard lock(mutex_);
  return input_ended_ || produced_ > released_ + (holding_ ? 1 : 0);
}

template <class Real>
const typename ParseAhead<Real>::Batch* ParseAhead<Real>::Next() {
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

template class ParseAhead<float>;
template class ParseAhead<double>;

}  // namespace rffstream::app
