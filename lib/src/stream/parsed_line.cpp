#include "rffstream/stream/parsed_line.h"

#include "absl/status/statusor.h"

namespace rffstream {

bool IsBlankLine(std::string_view text) {
  return text.find_first_not_of(" \t\r") == std::string_view::npos;
}

void ParseLine(const LineParser& parser, std::string_view text, bool too_long,
               std::span<double> inputs, std::span<double> targets, ParsedLine& parsed) {
  parsed.labelled = false;
  parsed.error.clear();
  if (too_long) {
    parsed.kind = ParsedLine::Kind::kTooLong;
    return;
  }
  if (IsBlankLine(text)) {
    parsed.kind = ParsedLine::Kind::kBlank;
    return;
  }
  absl::StatusOr<bool> labelled = parser.ParseTargets(text, inputs, targets);
  if (!labelled.ok()) {
    parsed.kind = ParsedLine::Kind::kMalformed;
    parsed.error = std::string(labelled.status().message());
    return;
  }
  parsed.kind = ParsedLine::Kind::kValues;
  parsed.labelled = *labelled;
}

}  // namespace rffstream
