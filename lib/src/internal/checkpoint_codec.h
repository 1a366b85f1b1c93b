// File: internal/checkpoint_codec.h
//
// A checkpoint as bytes and back (the format: rffstream/checkpoint.h).
// checkpoint.cpp puts the bytes in files and streams.
#ifndef RFFSTREAM_INTERNAL_CHECKPOINT_CODEC_H_
#define RFFSTREAM_INTERNAL_CHECKPOINT_CODEC_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "rffstream/checkpoint.h"

namespace rffstream::internal {

// The magic bytes, the format version, the byte-order mark, the bytes per real.
inline constexpr std::size_t kCheckpointHeaderBytes = 8 + 3 * sizeof(std::uint32_t);

// Checks everything in the header; returns the bytes per real it declares.
[[nodiscard]] absl::StatusOr<std::uint32_t> CheckCheckpointHeader(
    std::span<const unsigned char> bytes, const std::string& source);

// The whole file's bytes; refused when the record does not fit the learner
// or something is not finite.
template <class Real>
[[nodiscard]] absl::StatusOr<std::vector<unsigned char>> EncodeCheckpoint(
    const BasicLearner<Real>& learner, const CheckpointRecord& record);

// Errors name `source`; nothing is returned half read.
template <class Real>
[[nodiscard]] absl::StatusOr<BasicCheckpoint<Real>> DecodeCheckpoint(
    std::span<const unsigned char> bytes, const std::string& source);

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_CHECKPOINT_CODEC_H_
