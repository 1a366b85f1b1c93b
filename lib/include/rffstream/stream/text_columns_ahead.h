// File: rffstream/stream/text_columns_ahead.h
//
// What the lines after the first data line tell about its empty columns: a
// column that the first data line leaves empty is text when its first value
// further on is (a CSV whose first row has no city still has a city column).
// The caller reads those lines ahead when it can (a regular file's first
// bytes); on a pipe the first data line alone decides.
#ifndef RFFSTREAM_STREAM_TEXT_COLUMNS_AHEAD_H_
#define RFFSTREAM_STREAM_TEXT_COLUMNS_AHEAD_H_

#include <string_view>
#include <vector>

namespace rffstream {

// Of the `undecided` columns, those whose first non-missing value in the
// lines of `head` that follow `first_line` is text (neither a number nor a
// missing value). Lines of another field count than `num_fields` are
// skipped, and so is a last line cut short; nothing is decided when
// `first_line` is not a line of `head`.
std::vector<int> TextColumnsAhead(std::string_view head, std::string_view first_line,
                                  char delimiter, int num_fields, const std::vector<int>& undecided);

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_TEXT_COLUMNS_AHEAD_H_
