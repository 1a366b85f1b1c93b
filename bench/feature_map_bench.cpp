// Feature-map throughput (features per second), float32, against baselines
// in the same binary: the naive std::cos loop (one sample) and the
// projection's matrix product alone in Eigen (blocks), compiled with
// -march=native so that Eigen uses this machine's widest vectors.
//
//   build/bench/feature_map_bench --benchmark_filter='BM_FeatureMap'
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "Eigen/Dense"
#include "rffstream/feature_map.h"

namespace rffstream {
namespace {

FeatureMapF32 MakeMap(int input_dimension, int num_features) {
  FeatureMapConfig config;
  config.input_dimension = input_dimension;
  config.num_features = num_features;
  config.gamma = 1.0 / input_dimension;
  return *FeatureMapF32::Create(config);
}

std::vector<double> MakeInputs(int rows, int input_dimension) {
  std::vector<double> inputs(static_cast<size_t>(rows) * input_dimension);
  for (size_t i = 0; i < inputs.size(); ++i) inputs[i] = std::sin(0.37 * i);
  return inputs;
}

// Args: input dimension d, features D, block (1 = one sample at a time).
void BM_FeatureMap(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0)), features = static_cast<int>(state.range(1));
  const int block = static_cast<int>(state.range(2));
  const FeatureMapF32 map = MakeMap(d, features);
  const std::vector<double> inputs = MakeInputs(block, d);
  std::vector<float> z(static_cast<size_t>(block) * features);
  for (auto _ : state) {
    if (block == 1) {
      map.Map(inputs, z);
    } else {
      map.MapBlock(inputs, z);
    }
    benchmark::DoNotOptimize(z.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * block * features);
}

// The naive baseline: W x with a plain loop, then std::cos per feature.
void BM_FeatureMapNaive(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0)), features = static_cast<int>(state.range(1));
  const FeatureMapF32 map = MakeMap(d, features);
  const std::vector<double> raw = MakeInputs(1, d);
  const std::vector<float> x(raw.begin(), raw.end());
  std::vector<float> z(features);
  for (auto _ : state) {
    for (int i = 0; i < features; ++i) {
      float argument = map.offsets()[i];
      for (int j = 0; j < d; ++j) argument += map.projection()[i * d + j] * x[j];
      z[i] = map.scale() * std::cos(argument);
    }
    benchmark::DoNotOptimize(z.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * features);
}

// The block target's baseline: the projection X Wᵀ alone, as an Eigen GEMM.
void BM_FeatureMapProjectionOnly(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0)), features = static_cast<int>(state.range(1));
  const int block = static_cast<int>(state.range(2));
  const FeatureMapF32 map = MakeMap(d, features);
  using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const RowMatrix projection = Eigen::Map<const RowMatrix>(map.projection().data(), features, d);
  const std::vector<double> raw = MakeInputs(block, d);
  const std::vector<float> inputs(raw.begin(), raw.end());
  const RowMatrix x = Eigen::Map<const RowMatrix>(inputs.data(), block, d);
  RowMatrix z(block, features);
  for (auto _ : state) {
    z.noalias() = x * projection.transpose();
    benchmark::DoNotOptimize(z.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * block * features);
}

void Sizes(benchmark::internal::Benchmark* benchmark, bool blocks_only, bool single_only) {
  for (int d : {4, 16, 64, 256}) {
    for (int features : {256, 1024, 4096}) {
      if (!blocks_only) benchmark->Args({d, features, 1});
      if (!single_only) {
        benchmark->Args({d, features, 64});
        benchmark->Args({d, features, 256});
      }
    }
  }
}

BENCHMARK(BM_FeatureMap)->Apply([](auto* b) { Sizes(b, false, false); });
BENCHMARK(BM_FeatureMapNaive)->Apply([](auto* b) {
  for (int d : {4, 16, 64, 256})
    for (int features : {256, 1024, 4096}) b->Args({d, features});
});
BENCHMARK(BM_FeatureMapProjectionOnly)->Apply([](auto* b) { Sizes(b, true, false); });

}  // namespace
}  // namespace rffstream
