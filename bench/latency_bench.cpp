// Latency distribution of single-sample Predict and Learn, the figure that
// matters to a host system with a deadline: p50, p99, p99.9 and max over many
// calls after a warm-up, each call timed on its own.
//
//   build/bench/latency_bench [--calls=1000000] [--features=64,256,1024] [--threads=1,2]
//
// The baselines in the same run are the naive textbook learner
// (bench/naive_learner.h), timed the same way for a smaller number of calls,
// and, for a learner with a pool of threads, the same learner with one.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "naive_learner.h"
#include "rffstream/learner.h"
#include "rffstream/thread_pool.h"

namespace rffstream {
namespace {

constexpr int kInputDimension = 16;
constexpr int kWarmUpCalls = 20000;
constexpr int kDistinctInputs = 4096;

struct Percentiles {
  double p50, p99, p999, max;
};

Percentiles Summarize(std::vector<double>& nanoseconds) {
  const auto at = [&](double quantile) {
    const size_t index = std::min(nanoseconds.size() - 1,
                                  static_cast<size_t>(quantile * nanoseconds.size()));
    std::nth_element(nanoseconds.begin(), nanoseconds.begin() + index, nanoseconds.end());
    return nanoseconds[index];
  };
  return {at(0.5), at(0.99), at(0.999), *std::max_element(nanoseconds.begin(), nanoseconds.end())};
}

// Times `call(t)` once per iteration after a warm-up; returns microseconds.
template <class Call>
Percentiles Measure(long calls, Call&& call) {
  for (int t = 0; t < kWarmUpCalls; ++t) call(t);
  std::vector<double> nanoseconds(calls);  // allocated before timing starts
  for (long t = 0; t < calls; ++t) {
    const auto start = std::chrono::steady_clock::now();
    call(t);
    const auto stop = std::chrono::steady_clock::now();
    nanoseconds[t] = std::chrono::duration<double, std::nano>(stop - start).count();
  }
  Percentiles result = Summarize(nanoseconds);
  for (double* value : {&result.p50, &result.p99, &result.p999, &result.max}) *value /= 1000.0;
  return result;
}

void Print(const std::string& what, int features, long calls, const Percentiles& p) {
  std::printf("%-20s D=%-5d calls=%-8ld p50 %8.2f us  p99 %8.2f us  p99.9 %8.2f us  max %9.2f us\n",
              what.c_str(), features, calls, p.p50, p.p99, p.p999, p.max);
}

LearnerConfig Config(int features) {
  LearnerConfig config;
  config.features.input_dimension = kInputDimension;
  config.features.num_features = features;
  config.features.gamma = 1.0 / kInputDimension;
  return config;
}

template <class Real>
void RunLearner(int features, long calls, int threads) {
  absl::StatusOr<BasicLearner<Real>> learner = BasicLearner<Real>::Create(Config(features));
  if (!learner.ok()) std::abort();
  if (threads > 1) learner->SetThreadPool(std::make_shared<ThreadPool>(threads));
  std::vector<std::vector<double>> inputs(kDistinctInputs, std::vector<double>(kInputDimension));
  for (int t = 0; t < kDistinctInputs; ++t) {
    for (int j = 0; j < kInputDimension; ++j) inputs[t][j] = std::sin(0.37 * t + 1.3 * j);
  }
  const std::string precision = std::string(std::is_same_v<Real, float> ? "/float32" : "/float64") +
                                (threads > 1 ? "/threads:" + std::to_string(threads) : "");
  volatile Real sink = 0;
  Print("Learn" + precision, features, calls, Measure(calls, [&](long t) {
          const std::vector<double>& x = inputs[t % kDistinctInputs];
          sink = learner->Learn(x, static_cast<Real>(x[0] * x[1]));
        }));
  Print("Predict" + precision, features, calls, Measure(calls, [&](long t) {
          sink = learner->Predict(inputs[t % kDistinctInputs]);
        }));
}

void Run(int features, long calls, const std::vector<int>& thread_counts) {
  for (int threads : thread_counts) {
    RunLearner<double>(features, calls, threads);
    RunLearner<float>(features, calls, threads);
  }
  const LearnerConfig config = Config(features);
  absl::StatusOr<FeatureMap> map = FeatureMap::Create(config.features);
  std::vector<std::vector<double>> inputs(kDistinctInputs, std::vector<double>(kInputDimension));
  for (int t = 0; t < kDistinctInputs; ++t) {
    for (int j = 0; j < kInputDimension; ++j) inputs[t][j] = std::sin(0.37 * t + 1.3 * j);
  }
  volatile double sink = 0;
  const long naive_calls = std::max(1000L, calls / 100);
  bench::NaiveLearner naive(*map, config.ridge);
  Print("NaiveLearn", features, naive_calls, Measure(naive_calls, [&](long t) {
          const std::vector<double>& x = inputs[t % kDistinctInputs];
          sink = naive.Learn(x, x[0] * x[1]);
        }));
}

}  // namespace
}  // namespace rffstream

namespace {

// "a,b,c" as numbers.
std::vector<int> NumberList(const char* text) {
  std::vector<int> numbers;
  for (const char* p = text; p != nullptr && *p != '\0';) {
    numbers.push_back(std::atoi(p));
    p = std::strchr(p, ',');
    if (p != nullptr) ++p;
  }
  return numbers;
}

}  // namespace

int main(int argc, char** argv) {
  long calls = 1000000;
  std::vector<int> features = {64, 256, 1024};
  std::vector<int> threads = {1, 2};
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--calls=", 8) == 0) {
      calls = std::atol(argv[i] + 8);
    } else if (std::strncmp(argv[i], "--features=", 11) == 0) {
      features = NumberList(argv[i] + 11);
    } else if (std::strncmp(argv[i], "--threads=", 10) == 0) {
      threads = NumberList(argv[i] + 10);
    } else {
      std::fprintf(stderr, "usage: %s [--calls=N] [--features=D1,D2,...] [--threads=N1,N2,...]\n",
                   argv[0]);
      return 2;
    }
  }
  for (int d : features) rffstream::Run(d, calls, threads);
  return 0;
}
