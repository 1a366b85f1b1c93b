// RLS per-sample cost: ours against (a) the naive textbook full-matrix update
// and (b) Eigen used well, in one binary so that the ratios are what counts.
//
//   build/bench/rls_bench --benchmark_filter='BM_Learn(Eigen)?/float/1/'
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "Eigen/Dense"
#include "eigen_rls.h"
#include "rffstream/rls.h"

namespace rffstream {
namespace {

constexpr int kDistinctSamples = 256;
constexpr double kRidge = 1e-2;

template <class Real>
std::vector<std::vector<Real>> MakeFeatures(int dimension) {
  std::vector<std::vector<Real>> samples(kDistinctSamples, std::vector<Real>(dimension));
  for (int t = 0; t < kDistinctSamples; ++t) {
    for (int i = 0; i < dimension; ++i) {
      samples[t][i] = static_cast<Real>(std::cos(0.37 * t * (i + 1) + i) / std::sqrt(dimension / 2.0));
    }
  }
  return samples;
}

template <class Real>
void BM_Learn(benchmark::State& state) {
  const int dimension = static_cast<int>(state.range(0));
  BasicRls<Real> rls(dimension, kRidge, 1.0);
  const auto samples = MakeFeatures<Real>(dimension);
  int t = 0;
  for (auto _ : state) {
    const std::vector<Real>& z = samples[t++ % kDistinctSamples];
    benchmark::DoNotOptimize(rls.Learn(z, z[0]));
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["P_bytes"] = static_cast<double>(dimension) * (dimension + 1) / 2 * sizeof(Real);
}
BENCHMARK(BM_Learn<float>)->Name("BM_Learn/float/1")->RangeMultiplier(4)->Range(64, 4096)->Arg(2048);
BENCHMARK(BM_Learn<double>)->Name("BM_Learn/double/1")->RangeMultiplier(4)->Range(64, 4096)->Arg(2048);

template <class Real>
void BM_LearnEigen(benchmark::State& state) {
  const int dimension = static_cast<int>(state.range(0));
  bench::EigenRls<Real> rls(dimension, static_cast<Real>(kRidge));
  const auto samples = MakeFeatures<Real>(dimension);
  std::vector<typename bench::EigenRls<Real>::Vector> vectors;
  for (const auto& sample : samples) {
    vectors.push_back(Eigen::Map<const typename bench::EigenRls<Real>::Vector>(sample.data(), dimension));
  }
  int t = 0;
  for (auto _ : state) {
    const auto& z = vectors[t++ % kDistinctSamples];
    benchmark::DoNotOptimize(rls.Learn(z, z[0]));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LearnEigen<float>)->Name("BM_LearnEigen/float/1")->RangeMultiplier(4)->Range(64, 4096)->Arg(2048);
BENCHMARK(BM_LearnEigen<double>)->Name("BM_LearnEigen/double/1")->RangeMultiplier(4)->Range(64, 4096)->Arg(2048);

// Baseline (a): the textbook update on the full matrix with temporaries.
void BM_LearnNaive(benchmark::State& state) {
  const int dimension = static_cast<int>(state.range(0));
  Eigen::MatrixXd covariance = Eigen::MatrixXd::Identity(dimension, dimension) / kRidge;
  Eigen::VectorXd weights = Eigen::VectorXd::Zero(dimension);
  const auto samples = MakeFeatures<double>(dimension);
  int t = 0;
  for (auto _ : state) {
    const Eigen::VectorXd z = Eigen::Map<const Eigen::VectorXd>(samples[t++ % kDistinctSamples].data(), dimension);
    const double prior = weights.dot(z);
    const Eigen::VectorXd u = covariance * z;
    const double c = 1.0 + z.dot(u);
    weights += u * ((z[0] - prior) / c);
    covariance -= (u * u.transpose()) / c;
    benchmark::DoNotOptimize(prior);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LearnNaive)->RangeMultiplier(4)->Range(64, 1024);

}  // namespace
}  // namespace rffstream
