// File: internal/safe_bounds.h
//
// How close to overflow and underflow the RLS engines let a sample bring the
// model: a sample whose bounds pass these is learned, any other refused
// (rls_factor_form.cpp one sample at a time, rls_bulk.cpp a bulk block).
#ifndef RFFSTREAM_INTERNAL_SAFE_BOUNDS_H_
#define RFFSTREAM_INTERNAL_SAFE_BOUNDS_H_

#include <limits>

namespace rffstream::internal {

// Bounds above this are refused: far from overflow, whatever the rounding.
template <class Real>
constexpr double kSafeBound = 1e-4 * static_cast<double>(std::numeric_limits<Real>::max());
// And a smallest d' bounded below this: far from underflow (a d of 0 would
// make P singular).
template <class Real>
constexpr double kSmallestSafeScale = 1e4 * static_cast<double>(std::numeric_limits<Real>::min());

// A diagonal entry of the information matrix's square root Q (rls_bulk.cpp)
// whose d = 1 / Q_jj² stays far from underflow and overflow.
template <class Real>
bool SafeInformationDiagonal(double diagonal) {
  return diagonal * diagonal * kSmallestSafeScale<Real> < 1 &&
         diagonal * diagonal * kSafeBound<Real> > 1;
}

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_SAFE_BOUNDS_H_
