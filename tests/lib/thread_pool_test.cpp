// The thread pool, and learning with it: the same bits as one thread on
// every path (one sample, blocks, forgetting, the hinge loss, checkpoints),
// since the work is cut into the same parts whatever the threads.
#include "rffstream/thread_pool.h"

#include <catch2/catch.hpp>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "rffstream/checkpoint.h"
#include "tests/sanitized.h"
#include "rffstream/learner.h"
#include "rffstream/rls.h"

namespace rffstream {
namespace {

TEST_CASE("A pool runs every part once per call, on distinct threads", "[threads]") {
  for (const absl::Duration spin : {ThreadPool::kDefaultSpin, absl::ZeroDuration()}) {
    for (const int threads : {1, 2, 3, 5}) {
      ThreadPool pool(threads, spin);
      REQUIRE(pool.size() == threads);
      std::vector<std::atomic<int>> runs(threads);
      std::vector<std::thread::id> ids(threads);
      for (int call = 0; call < 2000; ++call) {
        const int parts = 1 + call % threads;
        auto part = [&](int index) {
          runs[index].fetch_add(1);
          ids[index] = std::this_thread::get_id();
        };
        pool.Run(parts, part);
      }
      for (int index = 0; index < threads; ++index) {
        int expected = 0;
        for (int call = 0; call < 2000; ++call) expected += index < 1 + call % threads ? 1 : 0;
        CHECK(runs[index].load() == expected);
        for (int other = 0; other < index; ++other) CHECK(ids[index] != ids[other]);
      }
      CHECK(ids[0] == std::this_thread::get_id());
    }
  }
}

TEST_CASE("A pool whose helpers sleep wakes them, and stops cleanly", "[threads]") {
  ThreadPool pool(2, absl::Microseconds(1));
  int sum = 0;
  std::atomic<int> helper_sum = 0;
  auto part = [&](int index) {
    if (index == 0) ++sum;
    if (index == 1) helper_sum.fetch_add(1);
  };
  for (int call = 0; call < 20; ++call) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // the helper falls asleep
    pool.Run(2, part);
  }
  CHECK(sum == 20);
  CHECK(helper_sum.load() == 20);
}

TEST_CASE("An exception in a part reaches the caller after every part ended", "[threads]") {
  ThreadPool pool(3);
  std::atomic<int> ended = 0;
  for (const int thrower : {0, 1, 2}) {
    auto part = [&](int index) {
      std::this_thread::sleep_for(std::chrono::milliseconds(index == thrower ? 0 : 5));
      ended.fetch_add(1);
      if (index == thrower) throw std::runtime_error("part " + std::to_string(index));
    };
    ended = 0;
    CHECK_THROWS_WITH(pool.Run(3, part), "part " + std::to_string(thrower));
    CHECK(ended.load() == 3);
  }
  int runs = 0;
  auto fine = [&](int) { ++runs; };
  pool.Run(1, fine);  // still usable
  CHECK(runs == 1);
}

std::vector<double> Sample(int t, int dimension) {
  std::vector<double> z(dimension);
  for (int i = 0; i < dimension; ++i) {
    z[i] = std::cos(0.37 * t * (i + 1) + 0.5 * i) / std::sqrt(dimension / 2.0);
  }
  return z;
}

template <class Real>
std::vector<Real> Cast(const std::vector<double>& values) {
  return std::vector<Real>(values.begin(), values.end());
}

TEMPLATE_TEST_CASE("RLS split across threads learns what one thread learns", "[threads][rls]",
                   float, double) {
  using Real = TestType;
  // One part (no split), and uneven splits off a SIMD vector's multiple
  // (1000: the parts' sizes as the app's threads have them; not under the
  // sanitizers, where 257 takes the same code paths).
  const std::vector<int> dimensions =
      testing::kSanitized ? std::vector<int>{40, 257} : std::vector<int>{40, 257, 1000};
  for (const int dimension : dimensions) {
    for (const double forgetting : {1.0, 0.995}) {
      for (const int threads : {2, 3}) {
        INFO("D " << dimension << ", beta " << forgetting << ", threads " << threads);
        BasicRls<Real> alone(dimension, 1e-2, forgetting, 2);
        BasicRls<Real> split(dimension, 1e-2, forgetting, 2);
        split.SetThreadPool(std::make_shared<ThreadPool>(threads));
        std::vector<Real> priors_alone(2), priors_split(2);
        for (int t = 0; t < 300; ++t) {
          const std::vector<Real> z = Cast<Real>(Sample(t, dimension));
          const std::vector<Real> targets{z[0] + z[1], std::sin(0.1f * t)};
          if (t % 50 < 40) {
            alone.LearnOutputs(z, targets, priors_alone);
            split.LearnOutputs(z, targets, priors_split);
            CHECK(priors_split == priors_alone);
          } else {  // a block of 10
            std::vector<Real> rows, block_targets, block_alone(20), block_split(20);
            for (int s = 0; s < 10; ++s) {
              const std::vector<Real> row = Cast<Real>(Sample(t + 1000 + s, dimension));
              rows.insert(rows.end(), row.begin(), row.end());
              block_targets.push_back(row[0]);
              block_targets.push_back(row[2]);
            }
            CHECK(alone.LearnBlock(rows, block_targets, block_alone) == 10);
            CHECK(split.LearnBlock(rows, block_targets, block_split) == 10);
            CHECK(block_split == block_alone);
            t += 9;
          }
        }
        for (int output = 0; output < 2; ++output) {
          const std::span<const Real> a = split.weights(output), b = alone.weights(output);
          CHECK(std::equal(a.begin(), a.end(), b.begin(), b.end()));
        }
        CHECK(split.CovarianceMatrix() == alone.CovarianceMatrix());
      }
    }
  }
}

LearnerConfig Config(int outputs, Loss loss) {
  LearnerConfig config;
  config.features.input_dimension = 3;
  config.features.num_features = 300;
  config.features.gamma = 0.5;
  config.ridge = 1e-2;
  config.num_outputs = outputs;
  config.loss = loss;
  return config;
}

TEST_CASE("A learner with a pool: the same predictions, blocks mapped on its threads, "
          "checkpoints resume", "[threads][learner]") {
  for (const Loss loss : {Loss::kSquared, Loss::kHinge}) {
    absl::StatusOr<Learner> alone = Learner::Create(Config(3, loss));
    absl::StatusOr<Learner> split = Learner::Create(Config(3, loss));
    REQUIRE(alone.ok());
    REQUIRE(split.ok());
    auto pool = std::make_shared<ThreadPool>(2);
    split->SetThreadPool(pool);
    CHECK(split->thread_pool() == pool);
    std::vector<double> inputs, targets;
    for (int t = 0; t < 640; ++t) {
      const double a = std::sin(0.3 * t), b = std::cos(0.7 * t), c = 0.01 * (t % 50);
      inputs.insert(inputs.end(), {a, b, c});
      const int label = (a * b > 0) + (c > 0.25);
      for (int output = 0; output < 3; ++output) targets.push_back(output == label ? 1.0 : -1.0);
    }
    std::vector<double> priors_alone(targets.size()), priors_split(targets.size());
    // The first half one by one, the rest in blocks of 64.
    for (int t = 0; t < 320; ++t) {
      const auto x = std::span<const double>(inputs).subspan(3 * t, 3);
      const auto y = std::span<const double>(targets).subspan(3 * t, 3);
      alone->LearnOutputs(x, y, std::span<double>(priors_alone).subspan(3 * t, 3));
      split->LearnOutputs(x, y, std::span<double>(priors_split).subspan(3 * t, 3));
    }
    for (int t = 320; t < 640; t += 64) {
      CHECK(alone->LearnBlock(std::span<const double>(inputs).subspan(3 * t, 3 * 64),
                              std::span<const double>(targets).subspan(3 * t, 3 * 64),
                              std::span<double>(priors_alone).subspan(3 * t, 3 * 64)) == 64);
      CHECK(split->LearnBlock(std::span<const double>(inputs).subspan(3 * t, 3 * 64),
                              std::span<const double>(targets).subspan(3 * t, 3 * 64),
                              std::span<double>(priors_split).subspan(3 * t, 3 * 64)) == 64);
    }
    CHECK(priors_split == priors_alone);
    CHECK(split->updates() == alone->updates());
    // A checkpoint of the threaded learner, loaded and given a pool again,
    // goes on exactly as the learner that never stopped.
    std::stringstream bytes;
    REQUIRE(WriteCheckpoint(bytes, *split, CheckpointRecord{DefaultTask(split->config())}).ok());
    absl::StatusOr<Checkpoint> loaded = ReadCheckpoint<double>(bytes, "test");
    REQUIRE(loaded.ok());
    loaded->learner.SetThreadPool(pool);
    std::vector<double> priors_loaded(3), priors_continued(3);
    for (int t = 0; t < 50; ++t) {
      const std::vector<double> x{std::cos(0.2 * t), 0.3, std::sin(t)};
      const std::vector<double> y{1, -1, -1};
      split->LearnOutputs(x, y, priors_continued);
      loaded->learner.LearnOutputs(x, y, priors_loaded);
      CHECK(priors_loaded == priors_continued);
    }
  }
}

TEST_CASE("Copies of a learner that share a pool stay independent on threads of their own",
          "[threads][learner]") {
  absl::StatusOr<Learner> original = Learner::Create(Config(1, Loss::kSquared));
  REQUIRE(original.ok());
  Learner reference_a = *original, reference_b = *original;
  original->SetThreadPool(std::make_shared<ThreadPool>(2));
  Learner a = *original, b = *original;
  REQUIRE(a.thread_pool() == b.thread_pool());
  // Each copy learns its own stream (b's targets negated) on its own thread;
  // before, the two threads' calls on the pool overwrote each other's parts.
  const int samples = testing::kSanitized ? 100 : 400;
  std::vector<double> priors_a(samples), priors_b(samples);
  const auto learn = [samples](Learner& learner, double sign, std::vector<double>& priors) {
    for (int t = 0; t < samples; ++t) {
      const std::vector<double> x{std::sin(0.3 * t), std::cos(0.7 * t), 0.01 * (t % 50)};
      priors[t] = learner.Learn(x, sign * (x[0] * x[1] + x[2]));
    }
  };
  std::thread thread_a([&] { learn(a, 1.0, priors_a); });
  std::thread thread_b([&] { learn(b, -1.0, priors_b); });
  thread_a.join();
  thread_b.join();
  std::vector<double> expected_a(samples), expected_b(samples);
  learn(reference_a, 1.0, expected_a);
  learn(reference_b, -1.0, expected_b);
  CHECK(priors_a == expected_a);
  CHECK(priors_b == expected_b);
}

}  // namespace
}  // namespace rffstream
