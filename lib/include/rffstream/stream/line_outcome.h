// File: rffstream/stream/line_outcome.h
//
// What became of one input line, as the stream pipeline (stream_pipeline.h)
// tells the transport that feeds it: an answer, a place in the warm-up
// window, or no answer (a blank or bad line). The transport turns outcomes
// into its own output: learn writes prediction lines and error messages,
// serve answer lines.
#ifndef RFFSTREAM_STREAM_LINE_OUTCOME_H_
#define RFFSTREAM_STREAM_LINE_OUTCOME_H_

#include <cstdint>
#include <span>
#include <string_view>

namespace rffstream {

struct LineOutcome {
  enum class Kind {
    kAnswer,  // `values`: the class, or one prediction per target (and the variance)
    kHeld,    // a data line joined the warm-up window: `held` of `window`
    kBlank,   // a line with nothing on it
    kBad,     // `reason` says why the line was not used
  };
  Kind kind = Kind::kAnswer;
  std::int64_t line_number = 0;
  std::span<const double> values;
  bool scored = false;  // kAnswer: the line was labelled and is counted in the metrics
  std::string_view reason;
  int held = 0;
  int window = 0;
  // kBad: found when the warm-up window was replayed, after the line was
  // answered kHeld.
  bool replayed = false;
};

class OutcomeSink {
 public:
  virtual ~OutcomeSink() = default;
  // Takes the outcomes in input order; false stops the stream (--strict).
  virtual bool Take(const LineOutcome& outcome) = 0;
  // The warm-up window ended: the outcomes so far were the provisional
  // model's, those from now on are the tuned model's.
  virtual void WarmUpEnded() {}
  // What the stream decided or warns of, as whole lines ending in '\n' (the
  // tuned settings, the input's shape, a header's warning), for the
  // transport's log: the pipeline itself never prints.
  virtual void Note(std::string_view /*lines*/) {}
};

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_LINE_OUTCOME_H_
