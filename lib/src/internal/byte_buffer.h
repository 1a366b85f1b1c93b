// File: internal/byte_buffer.h
//
// Serialization helpers for checkpoints: a writer that appends plain values
// and arrays to a byte vector in the machine's byte order, and a bounds-checked
// reader whose every failure names the field that could not be read. Floating
// point values must be finite both ways: the writer counts those that are
// not, and the reader refuses them.
#ifndef RFFSTREAM_INTERNAL_BYTE_BUFFER_H_
#define RFFSTREAM_INTERNAL_BYTE_BUFFER_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace rffstream::internal {

class ByteWriter {
 public:
  template <class T>
  void Write(T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    if constexpr (std::is_floating_point_v<T>) non_finite_ += std::isfinite(value) ? 0 : 1;
    const auto* bytes = reinterpret_cast<const unsigned char*>(&value);
    bytes_.insert(bytes_.end(), bytes, bytes + sizeof(T));
  }

  // The element count (u64), then the elements.
  template <class T>
  void WriteArray(std::span<const T> values) {
    Write<std::uint64_t>(values.size());
    if constexpr (std::is_floating_point_v<T>) {
      non_finite_ += std::count_if(values.begin(), values.end(),
                                   [](T value) { return !std::isfinite(value); });
    }
    const auto* bytes = reinterpret_cast<const unsigned char*>(values.data());
    bytes_.insert(bytes_.end(), bytes, bytes + values.size_bytes());
  }

  void WriteString(std::string_view text) {
    WriteArray<char>(std::span<const char>(text.data(), text.size()));
  }

  std::vector<unsigned char>& bytes() { return bytes_; }
  // How many NaN or infinite numbers were written.
  std::int64_t non_finite_count() const { return non_finite_; }

 private:
  std::vector<unsigned char> bytes_;
  std::int64_t non_finite_ = 0;
};

class ByteReader {
 public:
  // `source` names the input in error messages (a file name).
  ByteReader(std::span<const unsigned char> bytes, std::string source)
      : bytes_(bytes), source_(std::move(source)) {}

  template <class T>
  [[nodiscard]] absl::Status Read(std::string_view field, T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (bytes_.size() - position_ < sizeof(T)) return Truncated(field);
    std::memcpy(&value, bytes_.data() + position_, sizeof(T));
    position_ += sizeof(T);
    if constexpr (std::is_floating_point_v<T>) {
      if (!std::isfinite(value)) return NotFinite(field);
    }
    return absl::OkStatus();
  }

  // A string written by WriteString, of at most `max_length` bytes.
  [[nodiscard]] absl::Status ReadString(std::string_view field, std::uint64_t max_length,
                                        std::string& text) {
    std::uint64_t length = 0;
    if (absl::Status status = Read(field, length); !status.ok()) return status;
    if (length > max_length) {
      return absl::DataLossError(absl::StrCat(source_, ": ", std::string(field), " is ", length,
                                              " bytes long, more than ", max_length));
    }
    if (bytes_.size() - position_ < length) return Truncated(field);
    text.assign(reinterpret_cast<const char*>(bytes_.data() + position_), length);
    position_ += length;
    return absl::OkStatus();
  }

  // Reads an array written by WriteArray, which must hold exactly
  // `expected_count` elements.
  template <class T, class Allocator>
  [[nodiscard]] absl::Status ReadArray(std::string_view field, std::uint64_t expected_count,
                                       std::vector<T, Allocator>& values) {
    return ReadArray(field, expected_count, /*may_be_empty=*/false, values);
  }

  // As ReadArray, but an empty array is accepted too.
  template <class T, class Allocator>
  [[nodiscard]] absl::Status ReadOptionalArray(std::string_view field, std::uint64_t expected_count,
                                               std::vector<T, Allocator>& values) {
    return ReadArray(field, expected_count, /*may_be_empty=*/true, values);
  }

  std::size_t remaining() const { return bytes_.size() - position_; }
  const std::string& source() const { return source_; }

 private:
  template <class T, class Allocator>
  absl::Status ReadArray(std::string_view field, std::uint64_t expected_count, bool may_be_empty,
                         std::vector<T, Allocator>& values) {
    std::uint64_t count = 0;
    if (absl::Status status = Read(field, count); !status.ok()) return status;
    if (count != expected_count && !(may_be_empty && count == 0)) {
      return absl::DataLossError(absl::StrCat(source_, ": ", std::string(field), " has ", count,
                                              " entries, expected ", expected_count));
    }
    if ((bytes_.size() - position_) / sizeof(T) < count) return Truncated(field);
    values.resize(count);
    // An empty vector's data() may be null, which memcpy must not see.
    if (count > 0) std::memcpy(values.data(), bytes_.data() + position_, count * sizeof(T));
    position_ += count * sizeof(T);
    if constexpr (std::is_floating_point_v<T>) {
      if (!std::all_of(values.begin(), values.end(), [](T value) { return std::isfinite(value); })) {
        return NotFinite(field);
      }
    }
    return absl::OkStatus();
  }

  absl::Status NotFinite(std::string_view field) const {
    return absl::DataLossError(
        absl::StrCat(source_, ": ", std::string(field), " holds a NaN or infinite number"));
  }

  absl::Status Truncated(std::string_view field) const {
    return absl::DataLossError(
        absl::StrCat(source_, ": truncated while reading ", std::string(field)));
  }

  std::span<const unsigned char> bytes_;
  std::size_t position_ = 0;
  std::string source_;
};

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_BYTE_BUFFER_H_
