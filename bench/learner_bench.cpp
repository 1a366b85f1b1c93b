// Per-sample cost of the whole learner (feature map + RLS) against the naive
// textbook baseline in the same binary: the ratio is the figure that matters.
//
//   build/bench/learner_bench --benchmark_filter='Learn'
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "naive_learner.h"
#include "rffstream/learner.h"

namespace rffstream {
namespace {

constexpr int kInputDimension = 16;
constexpr int kStreamLength = 1024;  // cycled through, so inputs vary per call

LearnerConfig BenchConfig(int num_features, int input_dimension) {
  LearnerConfig config;
  config.features.input_dimension = input_dimension;
  config.features.num_features = num_features;
  config.features.gamma = 1.0 / input_dimension;
  config.ridge = 1e-3;
  return config;
}

std::vector<std::vector<double>> MakeInputs(int dimension) {
  std::vector<std::vector<double>> inputs(kStreamLength, std::vector<double>(dimension));
  for (int t = 0; t < kStreamLength; ++t) {
    for (int j = 0; j < dimension; ++j) inputs[t][j] = std::sin(0.37 * t + 1.3 * j);
  }
  return inputs;
}

void BM_LearnerLearn(benchmark::State& state) {
  absl::StatusOr<Learner> learner =
      Learner::Create(BenchConfig(static_cast<int>(state.range(0)), kInputDimension));
  const auto inputs = MakeInputs(kInputDimension);
  int t = 0;
  for (auto _ : state) {
    const std::vector<double>& x = inputs[t++ % kStreamLength];
    benchmark::DoNotOptimize(learner->Learn(x, x[0] * x[1]));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LearnerLearn)->Arg(256)->Arg(1024);

void BM_NaiveLearn(benchmark::State& state) {
  absl::StatusOr<FeatureMap> map = FeatureMap::Create(
      BenchConfig(static_cast<int>(state.range(0)), kInputDimension).features);
  bench::NaiveLearner learner(*map, 1e-3);
  const auto inputs = MakeInputs(kInputDimension);
  int t = 0;
  for (auto _ : state) {
    const std::vector<double>& x = inputs[t++ % kStreamLength];
    benchmark::DoNotOptimize(learner.Learn(x, x[0] * x[1]));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_NaiveLearn)->Arg(256)->Arg(1024);

// Predict(x) maps the features a chunk at a time into a stack buffer; its
// baseline in the same run is mapping the whole row first (MapRow) and
// predicting from it, which needs a row-sized buffer. Args: D, map (0 phase,
// 1 pair: each chunk of one half costs the sine and cosine of its
// frequencies, so that Predict keeps Map()'s bits).
LearnerConfig PredictConfig(const benchmark::State& state) {
  LearnerConfig config = BenchConfig(static_cast<int>(state.range(0)), kInputDimension);
  config.features.map = state.range(1) == 0 ? FeatureMapKind::kPhase : FeatureMapKind::kPair;
  return config;
}

void BM_LearnerPredict(benchmark::State& state) {
  absl::StatusOr<Learner> learner = Learner::Create(PredictConfig(state));
  const auto inputs = MakeInputs(kInputDimension);
  int t = 0;
  for (auto _ : state) benchmark::DoNotOptimize(learner->Predict(inputs[t++ % kStreamLength]));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LearnerPredict)->ArgsProduct({{256, 1024}, {0, 1}});

void BM_LearnerMapRowThenPredict(benchmark::State& state) {
  absl::StatusOr<Learner> learner = Learner::Create(PredictConfig(state));
  const auto inputs = MakeInputs(kInputDimension);
  std::vector<double> row(static_cast<std::size_t>(learner->row_length()));
  double prediction = 0;
  int t = 0;
  for (auto _ : state) {
    learner->MapRow(inputs[t++ % kStreamLength], row);
    learner->PredictRowOutputs(row, std::span<double>(&prediction, 1));
    benchmark::DoNotOptimize(prediction);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LearnerMapRowThenPredict)->ArgsProduct({{256, 1024}, {0, 1}});

// The feature map alone, one sample at a time, against the naive std::cos loop.
void BM_FeatureMapSample(benchmark::State& state) {
  const int dimension = static_cast<int>(state.range(0));
  const int num_features = static_cast<int>(state.range(1));
  absl::StatusOr<FeatureMap> map = FeatureMap::Create(BenchConfig(num_features, dimension).features);
  const auto inputs = MakeInputs(dimension);
  std::vector<double> z(num_features);
  int t = 0;
  for (auto _ : state) {
    map->Map(inputs[t++ % kStreamLength], z);
    benchmark::DoNotOptimize(z.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * num_features);
}
BENCHMARK(BM_FeatureMapSample)->Args({8, 256})->Args({8, 1024})->Args({64, 256})->Args({64, 1024});

void BM_NaiveFeatureMapSample(benchmark::State& state) {
  const int dimension = static_cast<int>(state.range(0));
  const int num_features = static_cast<int>(state.range(1));
  absl::StatusOr<FeatureMap> map = FeatureMap::Create(BenchConfig(num_features, dimension).features);
  bench::NaiveLearner learner(*map, 1e-3);
  const auto inputs = MakeInputs(dimension);
  int t = 0;
  for (auto _ : state) benchmark::DoNotOptimize(learner.Features(inputs[t++ % kStreamLength]));
  state.SetItemsProcessed(state.iterations() * num_features);
}
BENCHMARK(BM_NaiveFeatureMapSample)
    ->Args({8, 256})->Args({8, 1024})->Args({64, 256})->Args({64, 1024});

}  // namespace
}  // namespace rffstream
