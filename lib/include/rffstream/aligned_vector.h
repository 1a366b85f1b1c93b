// File: rffstream/aligned_vector.h
//
// std::vector whose storage starts on a 64-byte boundary (a cache line, and
// the width of an AVX-512 register), so SIMD loads and stores of its rows
// never straddle two cache lines. Used for the learner's matrices and scratch.
#ifndef RFFSTREAM_ALIGNED_VECTOR_H_
#define RFFSTREAM_ALIGNED_VECTOR_H_

#include <cstddef>
#include <new>
#include <vector>

namespace rffstream {

inline constexpr std::size_t kVectorAlignment = 64;

template <class T>
struct AlignedAllocator {
  using value_type = T;

  AlignedAllocator() = default;
  template <class U>
  constexpr AlignedAllocator(const AlignedAllocator<U>&) noexcept {}

  T* allocate(std::size_t count) {
    return static_cast<T*>(::operator new(count * sizeof(T), std::align_val_t{kVectorAlignment}));
  }
  void deallocate(T* pointer, std::size_t) noexcept {
    ::operator delete(pointer, std::align_val_t{kVectorAlignment});
  }

  template <class U>
  bool operator==(const AlignedAllocator<U>&) const noexcept {
    return true;
  }
};

template <class T>
using AlignedVector = std::vector<T, AlignedAllocator<T>>;

}  // namespace rffstream

#endif  // RFFSTREAM_ALIGNED_VECTOR_H_
