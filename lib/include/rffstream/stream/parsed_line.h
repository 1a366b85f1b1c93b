// File: rffstream/stream/parsed_line.h
//
// What became of one input line: numbers, or why it gave none. The same
// classification serves the lines parsed on the learner's thread and those
// parsed ahead on a thread of their own (the program's parse_ahead.h).
#ifndef RFFSTREAM_STREAM_PARSED_LINE_H_
#define RFFSTREAM_STREAM_PARSED_LINE_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "rffstream/line_parser.h"

namespace rffstream {

struct ParsedLine {
  enum class Kind {
    kValues,     // inputs and targets were parsed
    kBlank,      // empty or only blanks: an empty output line
    kTooLong,    // longer than the reader's limit
    kMalformed,  // the parser's message is in `error`
  };
  Kind kind = Kind::kBlank;
  bool labelled = false;  // kValues: the line has its target(s)
  std::int64_t line_number = 0;
  std::string error;
};

// True when the line holds nothing but blanks.
bool IsBlankLine(std::string_view text);

// Classifies a line (`too_long`: its reader cut it off) and, when it has
// numbers, parses them into `inputs` and `targets` (sized for `parser`). Sets
// every field but line_number.
void ParseLine(const LineParser& parser, std::string_view text, bool too_long,
               std::span<double> inputs, std::span<double> targets, ParsedLine& parsed);

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_PARSED_LINE_H_
