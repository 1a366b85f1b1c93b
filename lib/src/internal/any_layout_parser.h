// File: internal/any_layout_parser.h
//
// The parser of a task's lines in whichever of its layouts each one comes
// (LineColumns): all columns, all but the targets, or the inputs alone, told
// apart by the line's field count. Lines without their targets parse as
// unlabelled (predict only). Layouts of equal field count are one layout.
#ifndef RFFSTREAM_INTERNAL_ANY_LAYOUT_PARSER_H_
#define RFFSTREAM_INTERNAL_ANY_LAYOUT_PARSER_H_

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "rffstream/csv_line_parser.h"

namespace rffstream::internal {

class AnyLayoutParser : public LineParser {
 public:
  // `layouts`: the full layout first, then the others. REQUIRES: all have
  // the same inputs.
  AnyLayoutParser(std::vector<std::unique_ptr<CsvLineParser>> layouts, char delimiter);

  int num_inputs() const override { return layouts_.front()->num_inputs(); }
  int num_targets() const override { return layouts_.front()->num_targets(); }

  // A line of no known field count is read as the full layout, whose error
  // names the count.
  [[nodiscard]] absl::StatusOr<bool> ParseTargets(std::string_view line, std::span<double> inputs,
                                                  std::span<double> targets) const override;

 private:
  std::vector<std::unique_ptr<CsvLineParser>> layouts_;
  char delimiter_;
};

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_ANY_LAYOUT_PARSER_H_
