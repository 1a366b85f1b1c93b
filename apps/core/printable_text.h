// File: apps/core/printable_text.h
//
// Text from the input (a bad field, a client's line) on its way to a log or
// back to a client: control bytes and bytes that are not valid UTF-8 become
// \xNN escapes, so a hostile line cannot drive a terminal, forge log lines
// or break a client's decoder.
#ifndef RFFSTREAM_APPS_PRINTABLE_TEXT_H_
#define RFFSTREAM_APPS_PRINTABLE_TEXT_H_

#include <string>
#include <string_view>

namespace rffstream::app {

// `text` with every byte below 0x20, 0x7F, and every byte outside a
// well-formed UTF-8 sequence written as \xNN; the rest unchanged.
std::string EscapeForLog(std::string_view text);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_PRINTABLE_TEXT_H_
