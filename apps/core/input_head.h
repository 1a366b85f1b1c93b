// File: apps/core/input_head.h
//
// A regular file's first bytes, read ahead without moving the reading
// position, and what they tell about its text columns: a column that the
// first data line leaves empty is text when its first value further on is
// (a CSV whose first row has no city still has a city column). On a pipe
// nothing can be read ahead without holding lines back, so there the first
// data line alone decides (--categorical names the columns for certain).
#ifndef RFFSTREAM_APPS_INPUT_HEAD_H_
#define RFFSTREAM_APPS_INPUT_HEAD_H_

#include <string>
#include <string_view>
#include <vector>

namespace rffstream::app {

// How much of the input is read ahead: enough for a warm-up window of most
// files' lines.
inline constexpr std::size_t kInputHeadBytes = 1 << 20;

// The next kInputHeadBytes bytes of `fd` from its current position when it
// is a regular file (pread: the position stays); empty otherwise or on an
// error (the first line then decides alone).
std::string ReadInputHead(int fd);

// Of the `undecided` columns, those whose first non-missing value in the
// lines of `head` that follow `first_line` is text (neither a number nor a
// missing value). Lines of another field count than `num_fields` are
// skipped, and so is a last line cut short; nothing is decided when
// `first_line` is not a line of `head`.
std::vector<int> TextColumnsAhead(std::string_view head, std::string_view first_line,
                                  char delimiter, int num_fields, const std::vector<int>& undecided);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_INPUT_HEAD_H_
