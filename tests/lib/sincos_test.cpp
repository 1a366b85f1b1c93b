// The accuracy contract of internal/sincos_kernel.h, checked for every kernel
// this CPU supports against a higher-precision reference: double-precision
// std::sin/std::cos for float, long double sinl/cosl for double.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "internal/random.h"
#include "internal/sincos_contract.h"
#include "internal/simd_kernels.h"
#include "tests/forced_simd_kernel.h"
#include "rffstream/learner.h"

namespace rffstream::internal {
namespace {

// A feature map's scale, √(2/D) for D = 1000: not a power of two.
constexpr double kFeatureScale = 0.044721359549995794;

template <class Real>
double UlpError(Real got, long double reference, long double scale = 1) {
  const long double magnitude = std::fabs(reference);
  const long double one_ulp_of_one = std::numeric_limits<Real>::epsilon();
  // ulp(reference) for normal numbers, floored at an ulp of 1 times 2^-1 so
  // that near-zero results are measured in absolute terms (see above).
  int exponent = 0;
  std::frexp(static_cast<double>(magnitude), &exponent);
  long double ulp = std::ldexp(one_ulp_of_one, exponent - 1);
  // (For scaled outputs the floor scales too.)
  if (ulp < scale * one_ulp_of_one / 2) ulp = scale * one_ulp_of_one / 2;
  return static_cast<double>(std::fabs(static_cast<long double>(got) - reference) / ulp);
}

long double ReferenceSin(float x) { return std::sin(static_cast<double>(x)); }
long double ReferenceCos(float x) { return std::cos(static_cast<double>(x)); }
long double ReferenceSin(double x) { return std::sin(static_cast<long double>(x)); }
long double ReferenceCos(double x) { return std::cos(static_cast<long double>(x)); }

struct Worst {
  double ulp = 0;
  double at = 0;
  void Update(double error, double x) {
    if (!(error <= ulp)) *this = {error, x};
  }
};

// The worst errors of the sin/cos pair (ScaledSinCos, and ScaledSin, which
// must equal it) and of the cos-only path (ScaledCos).
struct Errors {
  Worst sin_cos;
  Worst cos_only;
};

template <class Real>
void Measure(const SimdKernelTable& kernels, const std::vector<Real>& inputs, Errors& errors,
             Real scale = 1) {
  std::vector<Real> sines = inputs, cosines(inputs.size()), cos_only = inputs, sin_only = inputs;
  if constexpr (std::is_same_v<Real, float>) {
    kernels.scaled_sincos_float(sines.data(), cosines.data(), sines.size(), scale);
    kernels.scaled_cos_float(cos_only.data(), cos_only.size(), scale);
    kernels.scaled_sin_float(sin_only.data(), sin_only.size(), scale);
  } else {
    kernels.scaled_sincos_double(sines.data(), cosines.data(), sines.size(), scale);
    kernels.scaled_cos_double(cos_only.data(), cos_only.size(), scale);
    kernels.scaled_sin_double(sin_only.data(), sin_only.size(), scale);
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const long double sin_reference = scale * ReferenceSin(inputs[i]);
    const long double cos_reference = scale * ReferenceCos(inputs[i]);
    REQUIRE(sines[i] == sin_only[i]);  // one algorithm
    const double x = static_cast<double>(inputs[i]);
    errors.sin_cos.Update(UlpError(sines[i], sin_reference, scale), x);
    errors.sin_cos.Update(UlpError(cosines[i], cos_reference, scale), x);
    errors.cos_only.Update(UlpError(cos_only[i], cos_reference, scale), x);
  }
}

template <class Real>
std::vector<Real> DenseSweep(Real from, Real to, int count) {
  std::vector<Real> values(count);
  for (int i = 0; i < count; ++i) values[i] = from + (to - from) * static_cast<Real>(i) / (count - 1);
  return values;
}

template <class Real>
void CheckKernel(const SimdKernelTable& kernels) {
  const Real range = std::is_same_v<Real, float> ? Real(1e4) : Real(1e6);
  INFO("kernel " << kernels.name << ", " << (std::is_same_v<Real, float> ? "float" : "double"));
  Errors fast;
  Measure(kernels, DenseSweep<Real>(-10, 10, 400001), fast);
  Measure(kernels, DenseSweep<Real>(-range, range, 1000001), fast);
  // Random arguments over the fast range, and around multiples of π/2 where
  // the reduction cancels most (multiples of π are where the cos-only path's
  // r reaches ±π/2).
  RandomEngine engine(17);
  std::vector<Real> random(500000), near_multiples(200000);
  for (Real& x : random) x = static_cast<Real>((2 * engine.NextUniform() - 1) * range);
  for (Real& x : near_multiples) {
    const double k = std::floor(engine.NextUniform() * range / 1.5707963267948966);
    x = static_cast<Real>(k * 1.5707963267948966 + (engine.NextUniform() - 0.5) * 1e-3);
  }
  Measure(kernels, random, fast);
  Measure(kernels, near_multiples, fast);
  INFO("worst in the fast range: " << fast.sin_cos.ulp << " ulp at " << fast.sin_cos.at
                                   << "; cos-only " << fast.cos_only.ulp << " ulp at "
                                   << fast.cos_only.at);
  CHECK(fast.sin_cos.ulp <= kMaxUlpFastRange);
  CHECK(fast.cos_only.ulp <= kMaxUlpCosOnly);

  Errors scaled;
  Measure(kernels, random, scaled, static_cast<Real>(kFeatureScale));
  Measure(kernels, DenseSweep<Real>(-10, 10, 400001), scaled, static_cast<Real>(kFeatureScale));
  INFO("worst with a scale of " << kFeatureScale << ": " << scaled.sin_cos.ulp << " ulp at "
                                << scaled.sin_cos.at << "; cos-only " << scaled.cos_only.ulp
                                << " ulp at " << scaled.cos_only.at);
  CHECK(scaled.sin_cos.ulp <= kMaxUlpScaled);
  CHECK(scaled.cos_only.ulp <= kMaxUlpCosOnly);

  // Beyond the fast range up to the largest finite value, both signs.
  Errors slow;
  std::vector<Real> large;
  for (int i = 0; i < 100000; ++i) {
    const double decades = std::is_same_v<Real, float> ? 34 : 302;  // from the range to the largest
    const double magnitude = static_cast<double>(range) * std::pow(10.0, engine.NextUniform() * decades);
    large.push_back(static_cast<Real>(engine.NextUniform() < 0.5 ? -magnitude : magnitude));
  }
  large.push_back(std::numeric_limits<Real>::max());
  large.push_back(std::numeric_limits<Real>::lowest());
  Measure(kernels, large, slow);
  INFO("worst beyond the fast range: " << slow.sin_cos.ulp << " ulp at " << slow.sin_cos.at);
  CHECK(slow.sin_cos.ulp <= kMaxUlpSlowPath);
  CHECK(slow.cos_only.ulp <= kMaxUlpSlowPath);
}

TEST_CASE("Every supported kernel meets the ulp contract", "[sincos]") {
  for (const SimdKernelTable* kernels : SupportedSimdKernelTables()) {
    CheckKernel<float>(*kernels);
    CheckKernel<double>(*kernels);
  }
}

template <class Real>
void CheckSpecialValues(const SimdKernelTable& kernels) {
  const Real inf = std::numeric_limits<Real>::infinity();
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  const Real denormal = std::numeric_limits<Real>::denorm_min();
  // One vector mixing special and ordinary lanes: ordinary lanes stay exact.
  std::vector<Real> x = {0, -Real(0), denormal, -denormal, inf, -inf, nan, Real(0.5), Real(1e30), Real(-3)};
  std::vector<Real> sines = x, cosines(x.size()), cos_only = x;
  if constexpr (std::is_same_v<Real, float>) {
    kernels.scaled_sincos_float(sines.data(), cosines.data(), x.size(), 1.0f);
    kernels.scaled_cos_float(cos_only.data(), x.size(), 1.0f);
  } else {
    kernels.scaled_sincos_double(sines.data(), cosines.data(), x.size(), 1.0);
    kernels.scaled_cos_double(cos_only.data(), x.size(), 1.0);
  }
  INFO("kernel " << kernels.name);
  CHECK(sines[0] == 0);
  CHECK(cosines[0] == 1);
  CHECK(sines[1] == 0);
  CHECK(cosines[1] == 1);
  CHECK(sines[2] == Approx(denormal).margin(denormal));
  CHECK(cosines[2] == 1);
  CHECK(sines[3] == Approx(-denormal).margin(denormal));
  for (int i : {4, 5, 6}) {
    CHECK(std::isnan(sines[i]));
    CHECK(std::isnan(cosines[i]));
    CHECK(std::isnan(cos_only[i]));
  }
  for (int i : {0, 1, 2, 3, 7, 9}) CHECK(UlpError(cos_only[i], ReferenceCos(x[i])) <= kMaxUlpCosOnly);
  CHECK(UlpError(cos_only[8], ReferenceCos(x[8])) <= kMaxUlpSlowPath);
  CHECK(UlpError(sines[7], ReferenceSin(x[7])) <= kMaxUlpFastRange);
  CHECK(UlpError(cosines[8], ReferenceCos(x[8])) <= kMaxUlpSlowPath);
  CHECK(UlpError(sines[9], ReferenceSin(x[9])) <= kMaxUlpFastRange);
}

TEST_CASE("Special values: zeros, subnormals, huge, NaN and infinities", "[sincos]") {
  for (const SimdKernelTable* kernels : SupportedSimdKernelTables()) {
    CheckSpecialValues<float>(*kernels);
    CheckSpecialValues<double>(*kernels);
  }
}

TEST_CASE("Learner predictions do not depend on the kernel beyond its bound", "[sincos]") {
  // Features differ by at most a few ulp between kernels; after learning, a
  // prediction is a weighted sum of them, so it moves by a comparable relative
  // amount times the conditioning of the fit: 1e-4 relative in float, 1e-10 in double.
  std::vector<double> reference64;
  std::vector<float> reference32;
  for (const SimdKernelTable* kernels : SupportedSimdKernelTables()) {
    const testing::ForcedSimdKernel forced(kernels->name);
    LearnerConfig config;
    config.features.input_dimension = 4;
    config.features.num_features = 128;
    config.features.gamma = 0.3;
    config.ridge = 0.1;
    absl::StatusOr<Learner> learner64 = Learner::Create(config);
    absl::StatusOr<LearnerF32> learner32 = LearnerF32::Create(config);
    REQUIRE(learner64.ok());
    REQUIRE(learner32.ok());
    std::vector<double> predictions64;
    std::vector<float> predictions32;
    for (int t = 0; t < 2000; ++t) {
      const double x[4] = {std::sin(0.1 * t), std::cos(0.23 * t), std::sin(0.05 * t + 1), 0.001 * t};
      const double y = std::sin(x[0] * 2) + x[1] * x[2];
      predictions64.push_back(learner64->Learn(x, y));
      predictions32.push_back(learner32->Learn(x, float(y)));
    }
    if (reference64.empty()) {
      reference64 = predictions64;
      reference32 = predictions32;
      continue;
    }
    INFO("kernel " << kernels->name);
    for (size_t t = 0; t < predictions64.size(); ++t) {
      REQUIRE(predictions64[t] == Approx(reference64[t]).epsilon(1e-10).margin(1e-10));
      REQUIRE(predictions32[t] == Approx(reference32[t]).epsilon(1e-4).margin(1e-4));
    }
  }
}

TEST_CASE("The forced kernel is the one that runs", "[sincos]") {
  for (const SimdKernelTable* kernels : SupportedSimdKernelTables()) {
    const testing::ForcedSimdKernel forced(kernels->name);
    CHECK(&ActiveSimdKernelTable() == kernels);
    CHECK(std::string(ActiveSimdKernelTable().name) == kernels->name);
  }
  CHECK(std::string(SupportedSimdKernelTables().back()->name) == "scalar");
  const absl::Status unknown = ForceSimdKernelTable("neon");
  CHECK(unknown.code() == absl::StatusCode::kInvalidArgument);
  CHECK(std::string(unknown.message()).rfind("SIMD kernel 'neon' is not supported on this CPU (supported: ", 0) == 0);
}

}  // namespace
}  // namespace rffstream::internal
