// File: apps/core/stop_signals.h
//
// SIGINT, SIGTERM and SIGHUP as a request to stop, not a death: `learn`
// stops reading, answers and learns the lines it holds, prints its summary,
// saves --save and exits 128 + the signal, so Ctrl-C on a live stream never
// loses what was learned. The signals are blocked in every thread started
// after construction and taken by a watcher thread (sigtimedwait), which
// runs the given stop action (LineReader::Cancel, say) once. A second
// signal ends the process at once, with 128 + that signal.
#ifndef RFFSTREAM_APPS_STOP_SIGNALS_H_
#define RFFSTREAM_APPS_STOP_SIGNALS_H_

#include <signal.h>

#include <atomic>
#include <functional>
#include <thread>

namespace rffstream::app {

class StopSignals {
 public:
  // Construct before any other thread starts, so that they all inherit the
  // blocked signals. `on_stop` runs on the watcher thread.
  explicit StopSignals(std::function<void()> on_stop);
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  // Stops the watcher and restores the signal mask it was given.
  ~StopSignals();

  // The signal that asked to stop, or 0.
  int received() const { return received_.load(std::memory_order_acquire); }

 private:
  void Watch();

  std::function<void()> on_stop_;
  sigset_t signals_;
  sigset_t previous_mask_;
  std::atomic<int> received_{0};
  std::atomic<bool> done_{false};
  std::thread watcher_;
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_STOP_SIGNALS_H_
