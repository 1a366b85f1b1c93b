// Every float argument in [-1e4, 1e4] (the fast range) through every sin/cos
// kernel this CPU supports, against double-precision libm: the worst error
// in ulp of s·sin x and s·cos x from ScaledSinCos and of s·cos x from the
// cos-only ScaledCos. The unit tests sweep densely and at random; this checks
// the contract in internal/sincos_kernel.h everywhere. About a minute per
// kernel and scale.
//
//   build/bench/sincos_exhaustive [scale ...]     (default: 1 and the feature scale √(2/1000))
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "internal/simd_kernels.h"
#include "internal/sincos_contract.h"

namespace rffstream {
namespace {

constexpr float kFastRange = 1e4f;

// Error in units of the reference's ulp, floored at half an ulp of the scale
// near zeros (as in tests/sincos_test.cpp).
double UlpError(float got, double reference, double scale) {
  int exponent = 0;
  std::frexp(std::fabs(reference), &exponent);
  const double ulp = std::max(std::ldexp(1.0, exponent - 24), std::ldexp(scale, -24));
  return std::fabs(static_cast<double>(got) - reference) / ulp;
}

struct Worst {
  double ulp = 0;
  float at = 0;
  void Update(double error, float x) {
    if (error > ulp) *this = {error, x};
  }
};

// Prints the worst errors of one kernel at one scale; false if they break
// the contract (internal/sincos_contract.h).
bool Check(const internal::SimdKernelTable& kernels, float scale) {
  constexpr std::size_t kChunk = 1 << 20;
  std::vector<float> x(kChunk), sines(kChunk), cosines(kChunk), cos_only(kChunk);
  Worst sin_worst, cos_worst, cos_only_worst;
  for (const float sign : {1.0f, -1.0f}) {
    std::uint32_t bits = 0;  // the non-negative floats in increasing order
    for (bool done = false; !done;) {
      std::size_t n = 0;
      for (; n < kChunk; ++n, ++bits) {
        float magnitude;
        std::memcpy(&magnitude, &bits, sizeof(magnitude));
        if (magnitude > kFastRange) {
          done = true;
          break;
        }
        x[n] = sign * magnitude;
      }
      std::memcpy(sines.data(), x.data(), n * sizeof(float));
      std::memcpy(cos_only.data(), x.data(), n * sizeof(float));
      kernels.scaled_sincos_float(sines.data(), cosines.data(), n, scale);
      kernels.scaled_cos_float(cos_only.data(), n, scale);
      for (std::size_t i = 0; i < n; ++i) {
        const double argument = x[i];
        const double sin_reference = scale * std::sin(argument);
        const double cos_reference = scale * std::cos(argument);
        sin_worst.Update(UlpError(sines[i], sin_reference, scale), x[i]);
        cos_worst.Update(UlpError(cosines[i], cos_reference, scale), x[i]);
        cos_only_worst.Update(UlpError(cos_only[i], cos_reference, scale), x[i]);
      }
    }
  }
  std::printf("%-7s scale %-9.7g sin %.3f ulp (x = %.9g)  cos %.3f ulp (x = %.9g)  cos-only %.3f ulp (x = %.9g)\n",
              kernels.name, scale, sin_worst.ulp, sin_worst.at, cos_worst.ulp, cos_worst.at,
              cos_only_worst.ulp, cos_only_worst.at);
  const bool kept = std::max(sin_worst.ulp, cos_worst.ulp) <= internal::kMaxUlpScaled &&
                    cos_only_worst.ulp <= internal::kMaxUlpCosOnly;
  if (!kept) {
    std::printf("%-7s BREAKS ITS CONTRACT (%.1f ulp sin/cos, %.1f ulp cos-only)\n", kernels.name,
                internal::kMaxUlpScaled, internal::kMaxUlpCosOnly);
  }
  std::fflush(stdout);
  return kept;
}

}  // namespace
}  // namespace rffstream

int main(int argc, char** argv) {
  std::vector<float> scales;
  for (int i = 1; i < argc; ++i) scales.push_back(std::strtof(argv[i], nullptr));
  if (scales.empty()) scales = {1.0f, 0.044721359549995794f};
  bool all_kept = true;
  for (const rffstream::internal::SimdKernelTable* kernels :
       rffstream::internal::SupportedSimdKernelTables()) {
    for (const float scale : scales) all_kept &= rffstream::Check(*kernels, scale);
  }
  return all_kept ? 0 : 1;
}
