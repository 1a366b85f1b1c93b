#include "core/printable_text.h"

#include <cstddef>

#include "absl/strings/str_format.h"

namespace rffstream::app {
namespace {

// The length of the well-formed UTF-8 sequence of two or more bytes at the
// start of `text` (RFC 3629: no overlong forms, no surrogates, at most
// U+10FFFF), or 0.
std::size_t MultiByteSequenceLength(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const auto continuation = [&](std::size_t i, unsigned low = 0x80, unsigned high = 0xBF) {
    return i < text.size() && byte(i) >= low && byte(i) <= high;
  };
  const unsigned lead = byte(0);
  if (lead >= 0xC2 && lead <= 0xDF) return continuation(1) ? 2 : 0;
  if (lead >= 0xE0 && lead <= 0xEF) {
    const unsigned low = lead == 0xE0 ? 0xA0 : 0x80;
    const unsigned high = lead == 0xED ? 0x9F : 0xBF;
    return continuation(1, low, high) && continuation(2) ? 3 : 0;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    const unsigned low = lead == 0xF0 ? 0x90 : 0x80;
    const unsigned high = lead == 0xF4 ? 0x8F : 0xBF;
    return continuation(1, low, high) && continuation(2) && continuation(3) ? 4 : 0;
  }
  return 0;
}

}  // namespace

std::string EscapeForLog(std::string_view text) {
  std::string printable;
  printable.reserve(text.size());
  while (!text.empty()) {
    const auto byte = static_cast<unsigned char>(text.front());
    std::size_t length = 1;
    if (byte >= 0x20 && byte < 0x7F) {
      printable.push_back(text.front());
    } else if (byte >= 0x80 && (length = MultiByteSequenceLength(text)) > 0) {
      printable.append(text.substr(0, length));
    } else {
      length = 1;
      absl::StrAppendFormat(&printable, "\\x%02X", byte);
    }
    text.remove_prefix(length);
  }
  return printable;
}

}  // namespace rffstream::app
