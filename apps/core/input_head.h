// File: apps/core/input_head.h
//
// A regular file's first bytes, read ahead without moving the reading
// position: what they tell about the text columns that the first data line
// leaves empty (rffstream/stream/text_columns_ahead.h). On a pipe nothing can
// be read ahead without holding lines back, so there the first data line
// alone decides (--categorical names the columns for certain).
#ifndef RFFSTREAM_APPS_INPUT_HEAD_H_
#define RFFSTREAM_APPS_INPUT_HEAD_H_

#include <string>

namespace rffstream::app {

// How much of the input is read ahead: enough for a warm-up window of most
// files' lines.
inline constexpr std::size_t kInputHeadBytes = 1 << 20;

// The next kInputHeadBytes bytes of `fd` from its current position when it
// is a regular file (pread: the position stays); empty otherwise or on an
// error (the first line then decides alone).
std::string ReadInputHead(int fd);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_INPUT_HEAD_H_
