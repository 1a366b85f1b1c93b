// The automatic bandwidth and ridge: the cost of choosing them on a warm-up
// window (rows × model features), against the baseline of what learning the
// same window costs the model once the choice is made.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "rffstream/learner.h"
#include "rffstream/warm_up_tuning.h"

namespace {

constexpr int kInputs = 16;

rffstream::LearnerConfig Config(int features) {
  rffstream::LearnerConfig config;
  config.features.input_dimension = kInputs;
  config.features.num_features = features;
  return config;
}

void MakeWindow(int rows, std::vector<double>& inputs, std::vector<double>& targets) {
  for (int t = 0; t < rows; ++t) {
    double sum = 0;
    for (int j = 0; j < kInputs; ++j) {
      inputs.push_back(std::sin(0.37 * t * (j + 1) + j));
      sum += inputs.back();
    }
    targets.push_back(std::cos(sum));
  }
}

// Args: rows, features.
void BM_TuneOnWarmUp(benchmark::State& state) {
  std::vector<double> inputs, targets;
  MakeWindow(static_cast<int>(state.range(0)), inputs, targets);
  const rffstream::LearnerConfig config = Config(static_cast<int>(state.range(1)));
  for (auto _ : state) {
    absl::StatusOr<rffstream::TuningResult> tuned =
        rffstream::TuneOnWarmUp(config, {}, inputs, targets);
    benchmark::DoNotOptimize(tuned);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_TuneOnWarmUp)->Args({256, 256})->Args({256, 1024})->Args({1000, 256})->Args({1000, 1024})
    ->Unit(benchmark::kMillisecond);

// The baseline: learning the window one line at a time with settings given.
void BM_LearnWindow(benchmark::State& state) {
  std::vector<double> inputs, targets;
  const int rows = static_cast<int>(state.range(0));
  MakeWindow(rows, inputs, targets);
  for (auto _ : state) {
    absl::StatusOr<rffstream::Learner> learner =
        rffstream::Learner::Create(Config(static_cast<int>(state.range(1))));
    for (int i = 0; i < rows; ++i) {
      benchmark::DoNotOptimize(learner->Learn(
          std::span<const double>(inputs).subspan(static_cast<std::size_t>(i) * kInputs, kInputs),
          targets[i]));
    }
  }
  state.SetItemsProcessed(state.iterations() * rows);
}
BENCHMARK(BM_LearnWindow)->Args({256, 256})->Args({256, 1024})->Args({1000, 256})->Args({1000, 1024})
    ->Unit(benchmark::kMillisecond);

}  // namespace
