#include "internal/crc32c.h"

#include <catch2/catch.hpp>
#include <string_view>

namespace rffstream::internal {
namespace {

std::span<const unsigned char> Bytes(std::string_view text) {
  return {reinterpret_cast<const unsigned char*>(text.data()), text.size()};
}

TEST_CASE("CRC-32C matches the standard check values", "[crc32c]") {
  // The catalogue check value of CRC-32C, and RFC 3720 (iSCSI) B.4 vectors.
  CHECK(ExtendCrc32c(0, Bytes("123456789")) == 0xe3069283u);
  const std::vector<unsigned char> zeros(32, 0x00), ones(32, 0xff);
  CHECK(ExtendCrc32c(0, zeros) == 0x8a9136aau);
  CHECK(ExtendCrc32c(0, ones) == 0x62a8ab43u);
  CHECK(ExtendCrc32c(0, {}) == 0u);
}

TEST_CASE("CRC-32C extends across pieces", "[crc32c]") {
  CHECK(ExtendCrc32c(ExtendCrc32c(0, Bytes("12345")), Bytes("6789")) == 0xe3069283u);
}

}  // namespace
}  // namespace rffstream::internal
