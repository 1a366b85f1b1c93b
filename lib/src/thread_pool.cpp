#include "rffstream/thread_pool.h"

#include <sched.h>

#include <algorithm>
#include <chrono>

namespace rffstream {
namespace {

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Waits until `value` differs from `old`: spins for about kPureSpin, then
// spins yielding the core to any other thread that wants it (on a busy
// machine a spinning thread must not starve the one it waits for) until
// `spin` has passed, then sleeps on the futex. Returns the new value.
template <class T>
T AwaitChange(const std::atomic<T>& value, T old, absl::Duration spin) {
  constexpr int kRelaxesPerRound = 64;
  constexpr absl::Duration kPureSpin = absl::Microseconds(4);
  const auto start = std::chrono::steady_clock::now();
  const auto pure_spin_end = start + absl::ToChronoNanoseconds(std::min(spin, kPureSpin));
  const auto deadline = start + absl::ToChronoNanoseconds(spin);
  for (auto now = start; now < deadline; now = std::chrono::steady_clock::now()) {
    for (int i = 0; i < kRelaxesPerRound; ++i) {
      const T current = value.load(std::memory_order_acquire);
      if (current != old) return current;
      CpuRelax();
    }
    if (now >= pure_spin_end) std::this_thread::yield();
  }
  value.wait(old, std::memory_order_acquire);
  return value.load(std::memory_order_acquire);
}

}  // namespace

ThreadPool::ThreadPool(int threads, absl::Duration spin) : spin_(spin) {
  helpers_.reserve(static_cast<std::size_t>(std::max(threads, 1) - 1));
  for (int index = 1; index < threads; ++index) {
    helpers_.emplace_back([this, index] { Help(index); });
  }
}

ThreadPool::~ThreadPool() {
  stopping_.store(true, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  generation_.notify_all();
  for (std::thread& helper : helpers_) helper.join();
}

int ThreadPool::AvailableCores() {
  cpu_set_t cores;
  if (sched_getaffinity(0, sizeof(cores), &cores) == 0) return std::max(1, CPU_COUNT(&cores));
  return std::max(1u, std::thread::hardware_concurrency());
}

int ThreadPool::RecommendedThreads(int row_length, int cores) {
  constexpr int kSmallestShared = 512;
  return row_length < kSmallestShared ? 1 : std::max(1, cores);
}

void ThreadPool::RunParts(int parts, void (*task)(void*, int), void* context) {
  const std::lock_guard<std::mutex> turn(run_mutex_);
  task_ = task;
  context_ = context;
  parts_ = parts;
  // Every helper answers, those without a part too: none still reads these
  // fields when the next call writes them.
  helpers_left_.store(size() - 1, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();  // no system call while every helper spins
  std::exception_ptr error;
  try {
    task(context, 0);
  } catch (...) {
    error = std::current_exception();
  }
  // The helpers' parts take about as long as this one, unless a helper
  // was asleep or lost its core: then this thread sleeps too.
  for (int left = helpers_left_.load(std::memory_order_acquire); left != 0;) {
    left = AwaitChange(helpers_left_, left, spin_);
  }
  if (error == nullptr && helper_error_ != nullptr) std::swap(error, helper_error_);
  helper_error_ = nullptr;
  if (error != nullptr) std::rethrow_exception(error);
}

void ThreadPool::Help(int index) {
  std::uint32_t seen = 0;
  while (true) {
    seen = AwaitChange(generation_, seen, spin_);
    if (stopping_.load(std::memory_order_acquire)) return;
    if (index < parts_) {
      try {
        task_(context_, index);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(error_mutex_);
        if (helper_error_ == nullptr) helper_error_ = std::current_exception();
      }
    }
    helpers_left_.fetch_sub(1, std::memory_order_acq_rel);
    helpers_left_.notify_one();  // a system call only when the caller sleeps
  }
}

}  // namespace rffstream
