#include "core/printable_text.h"

#include <catch2/catch.hpp>
#include <string>

namespace rffstream::app {
namespace {

TEST_CASE("Printable text passes through unchanged", "[printable_text]") {
  CHECK(EscapeForLog("column 0: 'x' is not a number (a text column? declare it categorical)") == "column 0: 'x' is not a number (a text column? declare it categorical)");
  CHECK(EscapeForLog("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") == "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
}

TEST_CASE("Control bytes and invalid UTF-8 become hex escapes", "[printable_text]") {
  CHECK(EscapeForLog(std::string("a\nb\rc\x1b[31m\x7f\0d", 13)) == "a\\x0Ab\\x0Dc\\x1B[31m\\x7F\\x00d");
  CHECK(EscapeForLog("\xff\xfe") == "\\xFF\\xFE");
  CHECK(EscapeForLog("\xc3") == "\\xC3");                  // truncated sequence
  CHECK(EscapeForLog("\xc0\xaf") == "\\xC0\\xAF");         // overlong '/'
  CHECK(EscapeForLog("\xed\xa0\x80") == "\\xED\\xA0\\x80");  // a UTF-16 surrogate
  CHECK(EscapeForLog("\xf4\x90\x80\x80") == "\\xF4\\x90\\x80\\x80");  // beyond U+10FFFF
}

}  // namespace
}  // namespace rffstream::app
