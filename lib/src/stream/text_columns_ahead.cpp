#include "rffstream/stream/text_columns_ahead.h"

#include <algorithm>
#include <string>

#include "absl/strings/numbers.h"
#include "rffstream/csv_line_parser.h"
#include "rffstream/stream/input_format.h"

namespace rffstream {
namespace {

std::string_view WithoutCarriageReturn(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

}  // namespace

std::vector<int> TextColumnsAhead(std::string_view head, std::string_view first_line,
                                  char delimiter, int num_fields, const std::vector<int>& undecided) {
  std::vector<int> text;
  if (undecided.empty()) return text;
  // Where the first data line ends in the head: the lines after it follow.
  std::size_t start = std::string_view::npos;
  for (std::size_t at = 0; at < head.size();) {
    const std::size_t end = head.find('\n', at);
    if (end == std::string_view::npos) break;
    const std::string_view line = WithoutCarriageReturn(head.substr(at, end - at));
    if (WithoutByteOrderMark(line) == WithoutByteOrderMark(WithoutCarriageReturn(first_line))) {
      start = end + 1;
      break;
    }
    at = end + 1;
  }
  if (start == std::string_view::npos) return text;
  std::vector<int> open = undecided;
  for (std::size_t at = start; at < head.size() && !open.empty();) {
    const std::size_t end = head.find('\n', at);
    if (end == std::string_view::npos) break;  // cut short
    const std::string_view line = WithoutCarriageReturn(head.substr(at, end - at));
    at = end + 1;
    if (CountCsvFields(line, delimiter) != num_fields) continue;
    const std::vector<std::string> fields = SplitCsvHeader(line, delimiter);
    for (auto column = open.begin(); column != open.end();) {
      const std::string& field = fields[static_cast<std::size_t>(*column)];
      if (IsMissingValue(field)) {
        ++column;
        continue;
      }
      double value = 0.0;
      if (!absl::SimpleAtod(field, &value)) text.push_back(*column);
      column = open.erase(column);
    }
  }
  std::sort(text.begin(), text.end());
  return text;
}

}  // namespace rffstream
