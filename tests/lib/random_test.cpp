#include "internal/random.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>

namespace rffstream::internal {
namespace {

TEST_CASE("RandomEngine matches the xoshiro256** reference stream", "[random]") {
  // From the authors' reference algorithm (SplitMix64 seeding, seed 42),
  // recomputed independently in Python with arbitrary-precision integers.
  constexpr std::uint64_t kGolden[] = {0x15780b2e0c2ec716ULL, 0x6104d9866d113a7eULL,
                                       0xae17533239e499a1ULL, 0xecb8ad4703b360a1ULL};
  RandomEngine engine(42);
  for (std::uint64_t expected : kGolden) CHECK(engine.NextBits() == expected);
}

TEST_CASE("RandomEngine normals are pinned across platforms", "[random]") {
  // Built from IEEE basic operations only; a change here changes every model's
  // frequencies, which breaks reproducibility promises: update deliberately.
  constexpr double kGolden[] = {-0.72621913824478568, -0.21119691823195985, 0.22162270150359337,
                                0.52277168775601457};
  RandomEngine engine(42);
  for (double expected : kGolden) CHECK(engine.NextStandardNormal() == expected);
}

TEST_CASE("NextUniform stays in 0 <= u < 1 and is uniform", "[random]") {
  RandomEngine engine(7);
  constexpr int kDraws = 200000;
  int bins[10] = {};
  for (int i = 0; i < kDraws; ++i) {
    const double u = engine.NextUniform();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
    ++bins[static_cast<int>(u * 10)];
  }
  // Chi-square with 9 degrees of freedom: 99.9th percentile is 27.9.
  double chi_square = 0.0;
  for (int count : bins) {
    const double expected = kDraws / 10.0;
    chi_square += (count - expected) * (count - expected) / expected;
  }
  CHECK(chi_square < 27.9);
}

TEST_CASE("NextStandardNormal has the moments of N(0, 1)", "[random]") {
  RandomEngine engine(11);
  constexpr int kDraws = 1000000;
  double sum = 0, sum_squares = 0, sum_fourth = 0;
  for (int i = 0; i < kDraws; ++i) {
    const double n = engine.NextStandardNormal();
    sum += n;
    sum_squares += n * n;
    sum_fourth += n * n * n * n;
  }
  // Standard errors: mean 1e-3, variance sqrt(2)e-3, fourth moment sqrt(96)e-3.
  CHECK(std::abs(sum / kDraws) < 5e-3);
  CHECK(std::abs(sum_squares / kDraws - 1.0) < 5 * 1.42e-3);
  CHECK(std::abs(sum_fourth / kDraws - 3.0) < 5 * 9.8e-3);
}

TEST_CASE("DeterministicLog agrees with libm within 2 ulp", "[random]") {
  // Sweep over 40 binades, including values just around powers of two and sqrt(2).
  for (double x = 1e-6; x < 1e6; x *= 1.0009765625) {
    const double expected = std::log(x);
    const double tolerance = 2 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(expected));
    REQUIRE(std::abs(DeterministicLog(x) - expected) <= tolerance);
  }
  CHECK(DeterministicLog(1.0) == 0.0);
  CHECK(std::abs(DeterministicLog(std::numeric_limits<double>::min()) -
                 std::log(std::numeric_limits<double>::min())) < 1e-12);
}

}  // namespace
}  // namespace rffstream::internal
