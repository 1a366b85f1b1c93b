// The hot-path contract of learner.h: after Create(), Predict() and Learn()
// allocate nothing and throw nothing, and Predict() on a const Learner is safe
// from many threads. Allocations are counted by replacing the global operator
// new for this test binary. Run under ThreadSanitizer
// (-DCMAKE_CXX_FLAGS=-fsanitize=thread) for the threading half of the contract.
#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <new>
#include <thread>
#include <type_traits>
#include <vector>

#include "rffstream/rffstream.h"

namespace {
std::atomic<long> allocation_count{0};
}  // namespace

// Every form of new and delete goes through malloc and free, so that the
// pairs match (AddressSanitizer checks that they do).
void* operator new(std::size_t size) {
  allocation_count.fetch_add(1, std::memory_order_relaxed);
  if (void* pointer = std::malloc(size == 0 ? 1 : size)) return pointer;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void operator delete(void* pointer) noexcept { std::free(pointer); }
void operator delete(void* pointer, std::size_t) noexcept { std::free(pointer); }
void operator delete[](void* pointer) noexcept { std::free(pointer); }
void operator delete[](void* pointer, std::size_t) noexcept { std::free(pointer); }
// The nothrow forms too (Catch2 uses them): a sanitizer runtime linked into
// the program (clang's) would otherwise allocate them for this delete.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  allocation_count.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size, const std::nothrow_t& nothrow) noexcept {
  return operator new(size, nothrow);
}
void operator delete(void* pointer, const std::nothrow_t&) noexcept { std::free(pointer); }
void operator delete[](void* pointer, const std::nothrow_t&) noexcept { std::free(pointer); }
// The aligned forms (AlignedVector's storage) are counted too.
void* operator new(std::size_t size, std::align_val_t alignment) {
  allocation_count.fetch_add(1, std::memory_order_relaxed);
  const auto bytes = static_cast<std::size_t>(alignment);
  // aligned_alloc wants a nonzero multiple of the alignment.
  const std::size_t rounded = size == 0 ? bytes : (size + bytes - 1) / bytes * bytes;
  if (void* pointer = std::aligned_alloc(bytes, rounded)) return pointer;
  throw std::bad_alloc();
}
void operator delete(void* pointer, std::align_val_t) noexcept { std::free(pointer); }
void operator delete(void* pointer, std::size_t, std::align_val_t) noexcept { std::free(pointer); }

namespace rffstream {
namespace {

static_assert(noexcept(std::declval<Learner&>().Learn(std::span<const double>(), 0.0)));
static_assert(noexcept(std::declval<const Learner&>().Predict(std::span<const double>())));
static_assert(noexcept(std::declval<const FeatureMap&>().Map(std::span<const double>(),
                                                             std::span<double>())));
static_assert(noexcept(std::declval<const Learner&>().MapRow(std::span<const double>(),
                                                             std::span<double>())));
static_assert(noexcept(std::declval<Learner&>().LearnRowOutputs(
    std::span<const double>(), std::span<const double>(), std::span<double>())));

template <class Real>
BasicLearner<Real> MakeLearner(FeatureMapKind map, double forgetting, Loss loss) {
  LearnerConfig config;
  config.features.input_dimension = 16;
  config.features.num_features = 256;
  config.features.gamma = 0.05;
  config.features.map = map;
  config.forgetting = forgetting;
  config.loss = loss;
  absl::StatusOr<BasicLearner<Real>> learner = BasicLearner<Real>::Create(config);
  REQUIRE(learner.ok());
  return *std::move(learner);
}

template <class Real>
void CheckNoAllocation(FeatureMapKind map, double forgetting, Loss loss = Loss::kSquared,
                       int threads = 1) {
  BasicLearner<Real> learner = MakeLearner<Real>(map, forgetting, loss);
  if (threads > 1) learner.SetThreadPool(std::make_shared<ThreadPool>(threads));
  std::vector<double> x(16);
  std::vector<Real> row(static_cast<std::size_t>(learner.row_length())), target(1);
  Real prior = 0, prediction = 0;
  const long before = allocation_count.load();
  Real sink = 0;
  for (int t = 0; t < 1000; ++t) {
    for (int j = 0; j < 16; ++j) x[j] = std::sin(0.1 * t + j);
    target[0] = static_cast<Real>(x[1]);
    sink += learner.Learn(x, static_cast<Real>(x[0]));
    sink += learner.Predict(x);
    // The feature-row calls of a pipeline that maps on another thread.
    learner.MapRow(x, row);
    learner.LearnRowOutputs(row, target, std::span<Real>(&prior, 1));
    learner.PredictRowOutputs(row, std::span<Real>(&prediction, 1));
    sink += prior + prediction;
    // The predictive variance (float64's covariance form once made an Eigen
    // temporary for zᵀPz).
    sink += learner.PredictWithVariance(x).prediction + learner.PredictRowWithVariance(row).prediction;
  }
  const long allocations = allocation_count.load() - before;
  CHECK(std::isfinite(sink));
  CHECK(allocations == 0);
}

TEST_CASE("Learn and Predict do not allocate", "[hot_path]") {
  for (FeatureMapKind map : {FeatureMapKind::kPhase, FeatureMapKind::kPair}) {
    for (double forgetting : {1.0, 0.99}) {
      CheckNoAllocation<double>(map, forgetting);
      CheckNoAllocation<float>(map, forgetting);
    }
  }
  CheckNoAllocation<double>(FeatureMapKind::kPhase, 1.0, Loss::kHinge);
  CheckNoAllocation<float>(FeatureMapKind::kPhase, 1.0, Loss::kHinge);
  // Split across a pool's threads (D = 256: two parts of the pass).
  for (double forgetting : {1.0, 0.99}) {
    CheckNoAllocation<double>(FeatureMapKind::kPhase, forgetting, Loss::kSquared, 2);
    CheckNoAllocation<float>(FeatureMapKind::kPhase, forgetting, Loss::kSquared, 2);
  }
  CheckNoAllocation<float>(FeatureMapKind::kPhase, 1.0, Loss::kHinge, 3);
}

TEST_CASE("The allocation counter does count", "[hot_path]") {
  const long before = allocation_count.load();
  auto* vector = new std::vector<int>(100);
  delete vector;
  CHECK(allocation_count.load() - before == 2);
  const AlignedVector<float> aligned(100);
  CHECK(allocation_count.load() - before == 3);
}

TEST_CASE("Predict on a const learner is safe from many threads", "[hot_path][threads]") {
  Learner learner = MakeLearner<double>(FeatureMapKind::kPhase, 1.0, Loss::kSquared);
  std::vector<std::vector<double>> inputs(64, std::vector<double>(16));
  for (int t = 0; t < 64; ++t) {
    for (int j = 0; j < 16; ++j) inputs[t][j] = std::cos(0.3 * t + j);
    learner.Learn(inputs[t], inputs[t][3]);
  }
  const Learner& shared = learner;
  std::vector<double> expected(64);
  for (int t = 0; t < 64; ++t) expected[t] = shared.Predict(inputs[t]);
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int thread = 0; thread < 4; ++thread) {
    threads.emplace_back([&] {
      for (int repeat = 0; repeat < 50; ++repeat) {
        for (int t = 0; t < 64; ++t) {
          if (shared.Predict(inputs[t]) != expected[t]) mismatches.fetch_add(1);
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(mismatches.load() == 0);
}

}  // namespace
}  // namespace rffstream
