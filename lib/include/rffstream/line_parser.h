// File: rffstream/line_parser.h
//
// The interface of the text formats: one line in, the inputs and the targets
// out, into caller-owned buffers (no allocation). Files, pipes and sockets all
// go through it. Implementations: CsvLineParser (delimited and whitespace
// separated dense numbers) and LibsvmLineParser (sparse "label idx:val ...").
#ifndef RFFSTREAM_LINE_PARSER_H_
#define RFFSTREAM_LINE_PARSER_H_

#include <span>
#include <string_view>

#include "absl/status/statusor.h"

namespace rffstream {

class LineParser {
 public:
  virtual ~LineParser() = default;

  virtual int num_inputs() const = 0;
  virtual int num_targets() const = 0;

  // Parses `line` (a trailing '\r' is ignored): fills `inputs` and `targets`
  // and returns true, or returns false when the line carries no target
  // (predict only). Errors name the field and the problem; on error the
  // buffers hold garbage. REQUIRES: inputs.size() == num_inputs(),
  // targets.size() == num_targets().
  [[nodiscard]] virtual absl::StatusOr<bool> ParseTargets(std::string_view line,
                                                          std::span<double> inputs,
                                                          std::span<double> targets) const = 0;
};

}  // namespace rffstream

#endif  // RFFSTREAM_LINE_PARSER_H_
