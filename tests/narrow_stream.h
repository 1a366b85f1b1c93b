// File: tests/narrow_stream.h
//
// A stream whose features excite every direction, most only weakly, so
// that A = λI + Σ z zᵀ grows a condition number far past 1/ε of float32 (and,
// at a tiny ridge, of float64): the square-root engine's test stream.
#ifndef RFFSTREAM_TESTS_NARROW_STREAM_H_
#define RFFSTREAM_TESTS_NARROW_STREAM_H_

#include <cmath>
#include <vector>

namespace rffstream::testing {

inline std::vector<double> NarrowFeatures(int t, int dimension) {
  std::vector<double> z(dimension);
  for (int i = 0; i < dimension; ++i) {
    z[i] = std::cos(0.013 * t * (1 + 0.1 * i) + 0.7 * i) * std::pow(0.6, i) / std::sqrt(dimension);
  }
  return z;
}

inline double NarrowTarget(int t) { return std::sin(0.021 * t) + 0.05 * std::sin(7.3 * t); }

}  // namespace rffstream::testing

#endif  // RFFSTREAM_TESTS_NARROW_STREAM_H_
