// File: internal/crc32c.h
//
// CRC-32C (Castagnoli), the checksum of checkpoint files. Table-driven,
// portable; checkpoints are written rarely, so speed is not the point.
#ifndef RFFSTREAM_INTERNAL_CRC32C_H_
#define RFFSTREAM_INTERNAL_CRC32C_H_

#include <cstdint>
#include <span>

namespace rffstream::internal {

// The CRC-32C of `bytes`, continuing from `crc` (0 to start).
std::uint32_t ExtendCrc32c(std::uint32_t crc, std::span<const unsigned char> bytes);

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_CRC32C_H_
