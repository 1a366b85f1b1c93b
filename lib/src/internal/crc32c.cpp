#include "internal/crc32c.h"

#include <array>

namespace rffstream::internal {
namespace {

constexpr std::uint32_t kReversedPolynomial = 0x82f63b78;  // Castagnoli, bit-reversed

constexpr std::array<std::uint32_t, 256> MakeTable() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t byte = 0; byte < 256; ++byte) {
    std::uint32_t crc = byte;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1) ? kReversedPolynomial : 0);
    table[byte] = crc;
  }
  return table;
}

constexpr std::array<std::uint32_t, 256> kTable = MakeTable();

}  // namespace

std::uint32_t ExtendCrc32c(std::uint32_t crc, std::span<const unsigned char> bytes) {
  crc = ~crc;
  for (unsigned char byte : bytes) crc = (crc >> 8) ^ kTable[(crc ^ byte) & 0xff];
  return ~crc;
}

}  // namespace rffstream::internal
