// sin+cos throughput per element, float32: each of our kernels against a
// std::sin + std::cos loop, xsimd 8.1's own xsimd::sincos and (when
// libsleef-dev is installed) SLEEF's u35 sincos, in one binary. BM_Cos/...
// does the same for cos alone (the phase map's cos-only path). The binary is
// built with -march=native so that xsimd and SLEEF get this machine's widest
// vectors; our kernels choose theirs at run time.
//
//   build/bench/sincos_bench --benchmark_filter=BM_Sincos
//   build/bench/sincos_bench --benchmark_filter=BM_Cos
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

#include "internal/random.h"
#include "internal/simd_kernels.h"
#include "xsimd/xsimd.hpp"
#ifdef RFFSTREAM_HAVE_SLEEF
#include <sleef.h>
#endif

namespace rffstream {
namespace {

constexpr std::size_t kElements = 4096;  // 16 KiB per array: in L1 with the outputs

// Arguments of the size the feature map sees: |x| up to a few tens.
std::vector<float> Arguments() {
  internal::RandomEngine engine(5);
  std::vector<float> x(kElements);
  for (float& value : x) value = static_cast<float>((engine.NextUniform() - 0.5) * 60.0);
  return x;
}

void Finish(benchmark::State& state, const std::vector<float>& sines) {
  benchmark::DoNotOptimize(sines.data());
  state.SetItemsProcessed(state.iterations() * kElements);
}

// Our kernels work in place (arguments in, sines out): each iteration takes
// the previous one's sines as arguments. The kernels are branch-free in the
// fast range, so their cost does not depend on the values.
void RunKernel(benchmark::State& state, const internal::SimdKernelTable* kernels) {
  std::vector<float> sines = Arguments(), cosines(kElements);
  for (auto _ : state) {
    kernels->scaled_sincos_float(sines.data(), cosines.data(), kElements, 1.0f);
    benchmark::ClobberMemory();
  }
  Finish(state, sines);
}

// Cos alone, in place.
void RunCosKernel(benchmark::State& state, const internal::SimdKernelTable* kernels) {
  std::vector<float> cosines = Arguments();
  for (auto _ : state) {
    kernels->scaled_cos_float(cosines.data(), kElements, 1.0f);
    benchmark::ClobberMemory();
  }
  Finish(state, cosines);
}

// One BM_Sincos/<kernel> and one BM_Cos/<kernel> per kernel this CPU supports.
const bool kRegistered = [] {
  for (const internal::SimdKernelTable* kernels : internal::SupportedSimdKernelTables()) {
    benchmark::RegisterBenchmark((std::string("BM_Sincos/") + kernels->name).c_str(), RunKernel,
                                 kernels);
    benchmark::RegisterBenchmark((std::string("BM_Cos/") + kernels->name).c_str(), RunCosKernel,
                                 kernels);
  }
  return true;
}();

void BM_CosStd(benchmark::State& state) {
  const std::vector<float> x = Arguments();
  std::vector<float> cosines(kElements);
  for (auto _ : state) {
    for (std::size_t i = 0; i < kElements; ++i) cosines[i] = std::cos(x[i]);
    benchmark::ClobberMemory();
  }
  Finish(state, cosines);
}
BENCHMARK(BM_CosStd)->Name("BM_Cos/std");

void BM_CosXsimd(benchmark::State& state) {
  using Batch = xsimd::batch<float>;
  const std::vector<float> x = Arguments();
  std::vector<float> cosines(kElements);
  for (auto _ : state) {
    for (std::size_t i = 0; i < kElements; i += Batch::size) {
      xsimd::cos(Batch::load_unaligned(x.data() + i)).store_unaligned(cosines.data() + i);
    }
    benchmark::ClobberMemory();
  }
  Finish(state, cosines);
}
BENCHMARK(BM_CosXsimd)->Name("BM_Cos/xsimd");

void BM_SincosStd(benchmark::State& state) {
  const std::vector<float> x = Arguments();
  std::vector<float> sines(kElements), cosines(kElements);
  for (auto _ : state) {
    for (std::size_t i = 0; i < kElements; ++i) {
      sines[i] = std::sin(x[i]);
      cosines[i] = std::cos(x[i]);
    }
    benchmark::ClobberMemory();
  }
  Finish(state, sines);
}
BENCHMARK(BM_SincosStd)->Name("BM_Sincos/std");

void BM_SincosXsimd(benchmark::State& state) {
  using Batch = xsimd::batch<float>;
  const std::vector<float> x = Arguments();
  std::vector<float> sines(kElements), cosines(kElements);
  for (auto _ : state) {
    for (std::size_t i = 0; i < kElements; i += Batch::size) {
      const auto [s, c] = xsimd::sincos(Batch::load_unaligned(x.data() + i));
      s.store_unaligned(sines.data() + i);
      c.store_unaligned(cosines.data() + i);
    }
    benchmark::ClobberMemory();
  }
  Finish(state, sines);
}
BENCHMARK(BM_SincosXsimd)->Name("BM_Sincos/xsimd");

#ifdef RFFSTREAM_HAVE_SLEEF
void BM_SincosSleef(benchmark::State& state) {
  const std::vector<float> x = Arguments();
  std::vector<float> sines(kElements), cosines(kElements);
  for (auto _ : state) {
#if defined(__AVX512F__)
    for (std::size_t i = 0; i < kElements; i += 16) {
      const Sleef___m512_2 result = Sleef_sincosf16_u35(_mm512_loadu_ps(x.data() + i));
      _mm512_storeu_ps(sines.data() + i, result.x);
      _mm512_storeu_ps(cosines.data() + i, result.y);
    }
#elif defined(__AVX2__)
    for (std::size_t i = 0; i < kElements; i += 8) {
      const Sleef___m256_2 result = Sleef_sincosf8_u35(_mm256_loadu_ps(x.data() + i));
      _mm256_storeu_ps(sines.data() + i, result.x);
      _mm256_storeu_ps(cosines.data() + i, result.y);
    }
#else
    for (std::size_t i = 0; i < kElements; i += 4) {
      const Sleef___m128_2 result = Sleef_sincosf4_u35(_mm_loadu_ps(x.data() + i));
      _mm_storeu_ps(sines.data() + i, result.x);
      _mm_storeu_ps(cosines.data() + i, result.y);
    }
#endif
    benchmark::ClobberMemory();
  }
  Finish(state, sines);
}
BENCHMARK(BM_SincosSleef)->Name("BM_Sincos/sleef");

void BM_CosSleef(benchmark::State& state) {
  const std::vector<float> x = Arguments();
  std::vector<float> cosines(kElements);
  for (auto _ : state) {
#if defined(__AVX512F__)
    for (std::size_t i = 0; i < kElements; i += 16) {
      _mm512_storeu_ps(cosines.data() + i, Sleef_cosf16_u35(_mm512_loadu_ps(x.data() + i)));
    }
#elif defined(__AVX2__)
    for (std::size_t i = 0; i < kElements; i += 8) {
      _mm256_storeu_ps(cosines.data() + i, Sleef_cosf8_u35(_mm256_loadu_ps(x.data() + i)));
    }
#else
    for (std::size_t i = 0; i < kElements; i += 4) {
      _mm_storeu_ps(cosines.data() + i, Sleef_cosf4_u35(_mm_loadu_ps(x.data() + i)));
    }
#endif
    benchmark::ClobberMemory();
  }
  Finish(state, cosines);
}
BENCHMARK(BM_CosSleef)->Name("BM_Cos/sleef");
#endif

}  // namespace
}  // namespace rffstream
