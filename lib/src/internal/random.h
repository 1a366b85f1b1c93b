// File: internal/random.h
//
// Bit-reproducible random numbers for sampling frequencies. The standard
// library's distributions are implementation-defined (std::normal_distribution
// differs between libstdc++ and libc++), and libm's log() may differ in the
// last ulp between platforms, so everything here is built from a fixed-definition
// engine and IEEE-754 basic operations only. random.cpp is compiled with
// -ffp-contract=off so that no compiler fuses a multiply-add differently.
#ifndef RFFSTREAM_INTERNAL_RANDOM_H_
#define RFFSTREAM_INTERNAL_RANDOM_H_

#include <array>
#include <cstdint>

namespace rffstream::internal {

// xoshiro256** 1.0 (Blackman & Vigna 2018), its state filled by SplitMix64 from
// a 64-bit seed, as its authors recommend.
class RandomEngine {
 public:
  explicit RandomEngine(std::uint64_t seed);

  std::uint64_t NextBits();

  // Uniform on [0, 1) with 53 random bits.
  double NextUniform();

  // Standard normal by Marsaglia's polar method over DeterministicLog.
  double NextStandardNormal();

 private:
  std::array<std::uint64_t, 4> state_;
  double spare_normal_ = 0.0;
  bool has_spare_normal_ = false;
};

// Natural logarithm of a positive finite x from basic IEEE operations only, so
// the result is the same on every platform. Accurate to about 1 ulp; used only
// for sampling, never on the hot path.
double DeterministicLog(double x);

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_RANDOM_H_
