#include "internal/any_layout_parser.h"

#include <cassert>
#include <utility>

namespace rffstream::internal {

AnyLayoutParser::AnyLayoutParser(std::vector<std::unique_ptr<CsvLineParser>> layouts,
                                 char delimiter)
    : layouts_(std::move(layouts)), delimiter_(delimiter) {
  assert(!layouts_.empty());
  for (const auto& layout : layouts_) assert(layout->num_inputs() == num_inputs());
}

absl::StatusOr<bool> AnyLayoutParser::ParseTargets(std::string_view line,
                                                   std::span<double> inputs,
                                                   std::span<double> targets) const {
  const int fields = CountCsvFields(line, delimiter_);
  for (const auto& layout : layouts_) {
    if (layout->num_fields() != fields) continue;
    if (layout->num_targets() == 0) {
      absl::StatusOr<bool> parsed = layout->ParseTargets(line, inputs, {});
      if (!parsed.ok()) return parsed.status();
      return false;  // no target column: predict only
    }
    return layout->ParseTargets(line, inputs, targets);
  }
  return layouts_.front()->ParseTargets(line, inputs, targets);
}

}  // namespace rffstream::internal
