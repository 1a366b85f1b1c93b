// File: internal/dot_product.h
//
// Σ a_i b_i with eight independent partial sums, so that the additions are
// not one dependent chain (without -ffast-math the compiler may not reorder
// them itself). The order is fixed, so results are reproducible.
#ifndef RFFSTREAM_INTERNAL_DOT_PRODUCT_H_
#define RFFSTREAM_INTERNAL_DOT_PRODUCT_H_

#include <cstddef>

namespace rffstream::internal {

template <class Real>
Real DotProduct(const Real* a, const Real* b, std::size_t count) {
  constexpr std::size_t kPartialSums = 8;
  Real partial[kPartialSums] = {};
  std::size_t i = 0;
  for (; i + kPartialSums <= count; i += kPartialSums) {
    for (std::size_t k = 0; k < kPartialSums; ++k) partial[k] += a[i + k] * b[i + k];
  }
  for (std::size_t k = 0; i < count; ++i, ++k) partial[k] += a[i] * b[i];
  return ((partial[0] + partial[4]) + (partial[1] + partial[5])) +
         ((partial[2] + partial[6]) + (partial[3] + partial[7]));
}

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_DOT_PRODUCT_H_
