// File: internal/padded_length.h
//
// Vectors and matrix rows that SIMD loops run over are zero-padded to a whole
// number of the widest vectors (16 floats) plus one more, so that loops never
// need a scalar tail and a full vector load at the last element stays in bounds.
#ifndef RFFSTREAM_INTERNAL_PADDED_LENGTH_H_
#define RFFSTREAM_INTERNAL_PADDED_LENGTH_H_

#include <cstddef>

namespace rffstream::internal {

inline constexpr int kPaddingMultiple = 16;

inline std::size_t PaddedLength(int length) {
  return (static_cast<std::size_t>(length) + kPaddingMultiple - 1) / kPaddingMultiple *
             kPaddingMultiple + kPaddingMultiple;
}

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_PADDED_LENGTH_H_
