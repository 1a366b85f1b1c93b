// File: rffstream/thread_pool.h
//
// A persistent pool of threads for splitting one sample's work (the RLS
// pass over P, a block's matrix products and feature map) across cores.
// Threads start once; each Run() hands every thread its part through one
// shared generation counter and waits on one counter of parts left: no
// allocation, no thread creation per call, one uncontended lock.
//
//   auto pool = std::make_shared<rffstream::ThreadPool>(2);
//   learner.SetThreadPool(pool);   // rffstream::Learner: learn as before
//
// Between calls the helper threads spin for `spin` (they answer the next
// call within a few hundred nanoseconds; after the first microseconds they
// yield the core to any thread that wants it), then sleep on a futex
// (waking one costs microseconds): a stream of samples keeps them
// spinning, an idle program costs no CPU after `spin`, and a machine with
// more threads than cores is not held up by spinning. The calling thread
// waits for the helpers the same way.
//
// Threading: Run() may be called from several threads (copies of a learner
// share its pool, and each copy may be used from a thread of its own): the
// calls take turns, each with every thread of the pool. The part functions
// must not call Run().
#ifndef RFFSTREAM_THREAD_POOL_H_
#define RFFSTREAM_THREAD_POOL_H_

#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/time/time.h"

namespace rffstream {

class ThreadPool {
 public:
  // The default time helpers spin before they sleep.
  static constexpr absl::Duration kDefaultSpin = absl::Microseconds(200);

  // `threads` >= 1 counts the calling thread: threads - 1 helpers start.
  explicit ThreadPool(int threads, absl::Duration spin = kDefaultSpin);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(helpers_.size()) + 1; }

  // Runs part(0) .. part(parts - 1), part 0 on the calling thread and part
  // p on helper p, and returns when all are done; then rethrows the first
  // exception a part threw (after every part has ended). REQUIRES: 1 <=
  // parts <= size(). No allocation.
  template <class Part>
  void Run(int parts, Part& part) {
    if (parts == 1) {
      part(0);
      return;
    }
    RunParts(parts, [](void* context, int index) { (*static_cast<Part*>(context))(index); },
             &part);
  }

  // The cores this process may run on.
  static int AvailableCores();
  // The threads worth using for a learner whose feature rows have
  // `row_length` entries, on `cores` cores (measured: docs/scaling.md,
  // "Threads"): one below 512 (a sample's pass is too short to share),
  // else every core.
  static int RecommendedThreads(int row_length, int cores);

 private:
  void RunParts(int parts, void (*task)(void*, int), void* context);
  void Help(int index);

  // Held through a call of RunParts: callers on other threads wait their turn.
  std::mutex run_mutex_;
  const absl::Duration spin_;
  // Written by Run() before it publishes a new generation.
  void (*task_)(void*, int) = nullptr;
  void* context_ = nullptr;
  int parts_ = 0;
  // On cache lines of their own: the helpers spin on the first, each
  // writes the second once a call.
  alignas(64) std::atomic<std::uint32_t> generation_{0};
  alignas(64) std::atomic<int> helpers_left_{0};  // helpers yet to finish the current call
  std::atomic<bool> stopping_{false};
  // The first exception a helper's part threw in the current call.
  std::mutex error_mutex_;
  std::exception_ptr helper_error_;
  std::vector<std::thread> helpers_;
};

}  // namespace rffstream

#endif  // RFFSTREAM_THREAD_POOL_H_
