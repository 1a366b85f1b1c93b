// RLS per-sample cost: ours against (a) the naive textbook full-matrix update
// and (b) Eigen used well, in one binary so that the ratios are what counts.
//
//   build/bench/rls_bench --benchmark_filter='BM_Learn(Eigen)?/float/1/'
//   build/bench/rls_bench --benchmark_filter='BM_Learn(Eigen)?/float/64/1024$'  (blocks of 64)
//   build/bench/rls_bench --benchmark_filter='BM_(Learn|PassBandwidth)/float'  (fraction of the bound)
//   build/bench/rls_bench --benchmark_filter='Threads/float'  (2 threads against 1, and both cores' bound)
//   build/bench/rls_bench --benchmark_filter='BM_Learn(SquareRoot)?/double/1/(256|1024)$'  (float64's two forms)
#include <algorithm>
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "Eigen/Dense"
#include "eigen_rls.h"
#include "rffstream/rls.h"
#include "rffstream/thread_pool.h"

namespace rffstream {
namespace {

constexpr int kDistinctSamples = 256;
constexpr double kRidge = 1e-2;

template <class Real>
std::int64_t TriangleBytes(int dimension) {
  return static_cast<std::int64_t>(dimension) * (dimension + 1) / 2 * sizeof(Real);
}

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

// One sample a timed iteration; bytes_per_second: the triangle of P read
// and written once per sample.
template <class Real>
void LearnOneAtATime(benchmark::State& state, BasicRls<Real>& rls) {
  const auto samples = MakeFeatures<Real>(rls.dimension());
  int t = 0;
  for (auto _ : state) {
    const std::vector<Real>& z = samples[t++ % kDistinctSamples];
    benchmark::DoNotOptimize(rls.Learn(z, z[0]));
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * 2 * TriangleBytes<Real>(rls.dimension()));
}

template <class Real>
void BM_Learn(benchmark::State& state) {
  BasicRls<Real> rls(static_cast<int>(state.range(0)), kRidge, 1.0);
  LearnOneAtATime(state, rls);
}
BENCHMARK(BM_Learn<float>)->Name("BM_Learn/float/1")->RangeMultiplier(4)->Range(64, 4096)->Arg(512)->Arg(2048);
BENCHMARK(BM_Learn<double>)->Name("BM_Learn/double/1")->RangeMultiplier(4)->Range(64, 4096)->Arg(2048);

// float64 at a ridge below kSmallestCovarianceRidge: its square-root form,
// against BM_Learn/double's covariance form.
void BM_LearnSquareRootDouble(benchmark::State& state) {
  Rls rls(static_cast<int>(state.range(0)), Rls::kSmallestCovarianceRidge / 10, 1.0);
  LearnOneAtATime(state, rls);
}
BENCHMARK(BM_LearnSquareRootDouble)->Name("BM_LearnSquareRoot/double/1")->Arg(256)->Arg(1024);

// The hardware bound for one sample at a time: a read-modify-write pass over
// as many bytes as P's triangle, at whatever cache level they fit in. Its
// bytes_per_second against BM_Learn's is the fraction of the bound reached.
template <class Real>
void BM_PassBandwidth(benchmark::State& state) {
  const int dimension = static_cast<int>(state.range(0));
  std::vector<Real> buffer(TriangleBytes<Real>(dimension) / sizeof(Real), Real{1});
  Real factor = Real{0.999};
  for (auto _ : state) {
    for (Real& value : buffer) value = value * factor + Real{1e-3};
    benchmark::DoNotOptimize(buffer.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 2 * TriangleBytes<Real>(dimension));
}
BENCHMARK(BM_PassBandwidth<float>)->Name("BM_PassBandwidth/float")->RangeMultiplier(4)->Range(64, 4096)->Arg(2048);
BENCHMARK(BM_PassBandwidth<double>)->Name("BM_PassBandwidth/double")->RangeMultiplier(4)->Range(64, 4096)->Arg(2048);

// One sample at a time with the pass over P split across a pool:
// BM_LearnThreads/<precision>/threads:<N>/D:<D>, wall-clock time (the
// helpers' work counts), threads:1 being the same code without a pool;
// spin_us:0, threads that sleep on the futex at once instead of spinning.
template <class Real>
void BM_LearnThreads(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  const int dimension = static_cast<int>(state.range(1));
  BasicRls<Real> rls(dimension, kRidge, 1.0);
  if (threads > 1) {
    rls.SetThreadPool(std::make_shared<ThreadPool>(threads, absl::Microseconds(state.range(2))));
  }
  LearnOneAtATime(state, rls);
}
BENCHMARK(BM_LearnThreads<float>)->Name("BM_LearnThreads/float")
    ->ArgNames({"threads", "D", "spin_us"})->ArgsProduct({{1, 2}, {256, 1024, 4096}, {200}})
    ->ArgsProduct({{2}, {256, 1024, 4096}, {0}})->UseRealTime();
BENCHMARK(BM_LearnThreads<double>)->Name("BM_LearnThreads/double")
    ->ArgNames({"threads", "D", "spin_us"})->ArgsProduct({{1, 2}, {256, 1024, 4096}, {200}})
    ->ArgsProduct({{2}, {256, 1024, 4096}, {0}})->UseRealTime();

// The bound for N threads: each makes the read-modify-write pass of
// BM_PassBandwidth over its own share of P's bytes, in the same pool, so
// its bytes_per_second is the cores' combined bandwidth at that size.
template <class Real>
void BM_PassBandwidthThreads(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  const int dimension = static_cast<int>(state.range(1));
  std::vector<Real> buffer(TriangleBytes<Real>(dimension) / sizeof(Real), Real{1});
  ThreadPool pool(threads);
  const std::size_t share = buffer.size() / threads;
  const Real factor = Real{0.999};
  auto part = [&](int index) {
    Real* begin = buffer.data() + share * index;
    Real* end = index + 1 == threads ? buffer.data() + buffer.size() : begin + share;
    for (Real* value = begin; value != end; ++value) *value = *value * factor + Real{1e-3};
    benchmark::DoNotOptimize(begin);
  };
  for (auto _ : state) {
    pool.Run(threads, part);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 2 * TriangleBytes<Real>(dimension));
}
BENCHMARK(BM_PassBandwidthThreads<float>)->Name("BM_PassBandwidthThreads/float")
    ->ArgNames({"threads", "D"})->ArgsProduct({{1, 2}, {256, 1024, 4096}})->UseRealTime();

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

// Blocks of k samples: items are samples, so figures compare with k = 1.
template <class Real>
void BM_LearnBlock(benchmark::State& state, int block) {
  const int dimension = static_cast<int>(state.range(0));
  BasicRls<Real> rls(dimension, kRidge, 1.0);
  // BM_LearnBlockThreads: a second argument, the pool's threads.
  if (state.range(1) > 1) rls.SetThreadPool(std::make_shared<ThreadPool>(state.range(1)));
  const auto samples = MakeFeatures<Real>(dimension);
  // The blocks cycle through the distinct samples, as single samples do.
  const int blocks = std::max(1, kDistinctSamples / block);
  std::vector<std::vector<Real>> rows(blocks), targets(blocks, std::vector<Real>(block));
  std::vector<Real> priors(block);
  for (int b = 0; b < blocks; ++b) {
    for (int s = 0; s < block; ++s) {
      const std::vector<Real>& sample = samples[(b * block + s) % kDistinctSamples];
      rows[b].insert(rows[b].end(), sample.begin(), sample.end());
      targets[b][s] = sample[0];
    }
  }
  int b = 0;
  for (auto _ : state) {
    rls.LearnBlock(rows[b], targets[b], priors);
    b = (b + 1) % blocks;
    benchmark::DoNotOptimize(priors.data());
  }
  state.SetItemsProcessed(state.iterations() * block);
  // Woodbury flops per block: U = P Zᵀ (2D²k), Z U (2Dk²), the rank-k
  // update (D²k); in bulk, the QR's 2D²k.
  const double d = dimension;
  const double flops = block >= BasicRls<Real>::kBulkSamples ? 2.0 * d * d * block
                                                              : 3.0 * d * d * block + 2.0 * d * block * block;
  state.counters["GFLOPS"] = benchmark::Counter(flops * state.iterations(), benchmark::Counter::kIsRate,
                                                benchmark::Counter::kIs1000);
}

template <class Real>
void BM_LearnEigenBlock(benchmark::State& state, int block) {
  const int dimension = static_cast<int>(state.range(0));
  bench::EigenRls<Real> rls(dimension, static_cast<Real>(kRidge));
  const auto samples = MakeFeatures<Real>(dimension);
  typename bench::EigenRls<Real>::Matrix features(dimension, block);
  typename bench::EigenRls<Real>::Vector targets(block);
  for (int s = 0; s < block; ++s) {
    for (int i = 0; i < dimension; ++i) features(i, s) = samples[s % kDistinctSamples][i];
    targets[s] = samples[s % kDistinctSamples][0];
  }
  for (auto _ : state) {
    rls.LearnBlock(features, targets);
    benchmark::DoNotOptimize(rls.weights().data());
  }
  state.SetItemsProcessed(state.iterations() * block);
  state.counters["GFLOPS"] = benchmark::Counter(
      (3.0 * dimension * dimension * block + 2.0 * dimension * block * block) * state.iterations(),
      benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}

// BM_Learn/<precision>/<k>/<D> and BM_LearnEigen/<precision>/<k>/<D> for
// blocks of k > 1 (k = 1 is registered above).
template <class Function>
void RegisterBlocks(const std::string& prefix, Function function) {
  for (int block : {16, 64, 256}) {
    benchmark::internal::Benchmark* registered = benchmark::RegisterBenchmark(
        (prefix + "/" + std::to_string(block)).c_str(), function, block);
    for (int dimension : {64, 256, 512, 1024, 2048, 4096}) registered->Args({dimension, 1});
  }
}
const bool kBlocksRegistered = [] {
  RegisterBlocks("BM_Learn/float", BM_LearnBlock<float>);
  RegisterBlocks("BM_Learn/double", BM_LearnBlock<double>);
  RegisterBlocks("BM_LearnEigen/float", BM_LearnEigenBlock<float>);
  RegisterBlocks("BM_LearnEigen/double", BM_LearnEigenBlock<double>);
  // Blocks of 64, and bulk blocks, with the products split across a pool,
  // wall-clock time: BM_LearnBlockThreads/<precision>/<k>/D:<D>/threads:<N>.
  for (const char* precision : {"float", "double"}) {
    for (int block : {64, 1024, 4096}) {
      auto* registered = benchmark::RegisterBenchmark(
          (std::string("BM_LearnBlockThreads/") + precision + "/" + std::to_string(block)).c_str(),
          precision == std::string("float") ? BM_LearnBlock<float> : BM_LearnBlock<double>, block);
      registered->ArgNames({"D", "threads"})->ArgsProduct({{256, 1024, 4096}, {1, 2}})->UseRealTime();
    }
  }
  return true;
}();

// The machine's practical peak for the FLOP fractions: a large square Eigen
// GEMM (compiled for this machine), in GFLOPS.
template <class Real>
void BM_PeakGemm(benchmark::State& state) {
  using Matrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>;
  const int n = static_cast<int>(state.range(0));
  const Matrix a = Matrix::Random(n, n), b = Matrix::Random(n, n);
  Matrix c(n, n);
  for (auto _ : state) {
    c.noalias() = a * b;
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOPS"] = benchmark::Counter(2.0 * n * n * n * state.iterations(),
                                                benchmark::Counter::kIsRate,
                                                benchmark::Counter::kIs1000);
}
BENCHMARK(BM_PeakGemm<float>)->Name("BM_PeakGemm/float")->Arg(1024);
BENCHMARK(BM_PeakGemm<double>)->Name("BM_PeakGemm/double")->Arg(1024);

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
