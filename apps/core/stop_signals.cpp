#include "core/stop_signals.h"

#include <cstdlib>
#include <ctime>

namespace rffstream::app {

StopSignals::StopSignals(std::function<void()> on_stop) : on_stop_(std::move(on_stop)) {
  sigemptyset(&signals_);
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&signals_, signal);
  pthread_sigmask(SIG_BLOCK, &signals_, &previous_mask_);
  watcher_ = std::thread([this] { Watch(); });
}

StopSignals::~StopSignals() {
  done_.store(true, std::memory_order_release);
  watcher_.join();
  pthread_sigmask(SIG_SETMASK, &previous_mask_, nullptr);
}

void StopSignals::Watch() {
  // Polls the done flag a few times a second: simpler than a second wake-up
  // channel, and a stopping run waits at most that long for the watcher.
  const timespec timeout{0, 100'000'000};
  while (!done_.load(std::memory_order_acquire)) {
    const int signal = sigtimedwait(&signals_, nullptr, &timeout);
    if (signal <= 0) continue;  // timed out, or interrupted
    // A second signal means "now": the user gave up waiting for the save.
    if (received_.load(std::memory_order_acquire) != 0) std::_Exit(128 + signal);
    received_.store(signal, std::memory_order_release);
    on_stop_();
  }
}

}  // namespace rffstream::app
