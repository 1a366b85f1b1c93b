#include "internal/random.h"

#include <cmath>

namespace rffstream::internal {
namespace {

std::uint64_t SplitMix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t RotateLeft(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

RandomEngine::RandomEngine(std::uint64_t seed) {
  for (std::uint64_t& word : state_) word = SplitMix64(seed);
}

std::uint64_t RandomEngine::NextBits() {
  const std::uint64_t result = RotateLeft(state_[1] * 5, 7) * 9;
  const std::uint64_t shifted = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= shifted;
  state_[3] = RotateLeft(state_[3], 45);
  return result;
}

double RandomEngine::NextUniform() {
  // The top 53 bits scaled by 2^-53: exactly representable, so exact.
  return static_cast<double>(NextBits() >> 11) * 0x1.0p-53;
}

double RandomEngine::NextStandardNormal() {
  if (has_spare_normal_) {
    has_spare_normal_ = false;
    return spare_normal_;
  }
  double u, v, s;
  do {
    u = 2.0 * NextUniform() - 1.0;
    v = 2.0 * NextUniform() - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  // std::sqrt is correctly rounded by IEEE-754, hence reproducible.
  const double factor = std::sqrt(-2.0 * DeterministicLog(s) / s);
  spare_normal_ = v * factor;
  has_spare_normal_ = true;
  return u * factor;
}

double DeterministicLog(double x) {
  // x = m * 2^e with m in [sqrt(1/2), sqrt(2)); log(m) = 2 atanh(f) with
  // f = (m - 1) / (m + 1), |f| <= 0.1716, summed to f^23 (next term < 1e-19).
  int exponent = 0;
  double mantissa = std::frexp(x, &exponent);  // exact: [0.5, 1)
  if (mantissa < 0.70710678118654752440) {
    mantissa *= 2.0;
    exponent -= 1;
  }
  const double f = (mantissa - 1.0) / (mantissa + 1.0);
  const double f2 = f * f;
  double series = 0.0;
  for (int k = 23; k >= 3; k -= 2) series = (series + 1.0 / k) * f2;
  const double log_mantissa = 2.0 * f * (1.0 + series);
  constexpr double kLn2High = 0x1.62e42fefa3800p-1;  // ln 2 split so that
  constexpr double kLn2Low = 0x1.ef35793c76730p-45;  // exponent * high is exact
  return exponent * kLn2High + (log_mantissa + exponent * kLn2Low);
}

}  // namespace rffstream::internal
