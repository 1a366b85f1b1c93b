// The line server in this process, apart from any model: a handler that
// numbers the lines it answers, a real listening socket on 127.0.0.1, real
// clients, and real signals (SIGTERM, SIGHUP) read through a signalfd.
#include "server/line_server.h"

#include <pthread.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <catch2/catch.hpp>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "server/listen_address.h"
#include "tests/line_client.h"

namespace rffstream::app {
namespace {

using rffstream::testing::Client;

// Answers "N:line", N counting every line this server answered, and
// records the size of each batch it was given.
class NumberingHandler {
 public:
  std::size_t operator()(std::span<const std::string_view> lines, std::string& output,
                         std::size_t output_budget) {
    batches.push_back(lines.size());
    std::size_t answered = 0;
    for (const std::string_view line : lines) {
      if (output.size() >= output_budget) break;
      absl::StrAppend(&output, ++count, ":", std::string(line), "\n");
      ++answered;
    }
    if (answered < lines.size()) ++stops_at_budget;
    return answered;
  }

  std::int64_t count = 0;
  std::vector<std::size_t> batches;
  int stops_at_budget = 0;  // calls that answered fewer lines than given
};

// A LineServer on a thread of its own. SIGTERM and SIGHUP are blocked in the
// test's thread before the server's starts (which inherits the mask), so a
// signal sent to the process waits for the server's signalfd.
class ServerThread {
 public:
  ServerThread(LineServerOptions options, NumberingHandler& handler) {
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGHUP);
    REQUIRE(pthread_sigmask(SIG_BLOCK, &signals, &previous_mask_) == 0);
    signal_fd_ = ::signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK);
    REQUIRE(signal_fd_ >= 0);
    absl::StatusOr<ListenAddress> address = ParseListenAddress("127.0.0.1:0");
    REQUIRE(address.ok());
    absl::StatusOr<int> listen_fd = OpenListeningSocket(*address);
    REQUIRE(listen_fd.ok());
    port_ = BoundPort(*listen_fd);
    log_ = std::tmpfile();
    server_ = std::make_unique<LineServer>(
        *listen_fd, options,
        [&handler](std::span<const std::string_view> lines, std::string& output,
                   std::size_t budget) { return handler(lines, output, budget); },
        log_);
    thread_ = std::thread([this] { status_ = server_->Run(signal_fd_, [this] { ++hangups_; }); });
  }

  ~ServerThread() {
    // A test that stopped the server already checked its status; this one only cleans up.
    if (thread_.joinable()) Stop().IgnoreError();
    server_.reset();
    ::close(signal_fd_);
    std::fclose(log_);
    pthread_sigmask(SIG_SETMASK, &previous_mask_, nullptr);
  }

  int port() const { return port_; }
  int hangups() const { return hangups_.load(); }
  void Signal(int signal) { REQUIRE(::kill(::getpid(), signal) == 0); }

  // SIGTERM, then what Run returned.
  absl::Status Stop() {
    Signal(SIGTERM);
    thread_.join();
    return status_;
  }

 private:
  sigset_t previous_mask_{};
  int signal_fd_ = -1;
  int port_ = 0;
  std::FILE* log_ = nullptr;
  std::unique_ptr<LineServer> server_;
  std::atomic<int> hangups_ = 0;
  absl::Status status_;
  std::thread thread_;
};

TEST_CASE("Every line gets one answer, in order, however it was cut into packets",
          "[line_server]") {
  NumberingHandler handler;
  ServerThread server({}, handler);
  Client client(server.port());
  client.Send("a\nb\nc");  // "c" unfinished: no answer yet
  CHECK(client.ReadLines(2) == std::vector<std::string>{"1:a", "2:b"});
  client.Send("d\n\r\ne\n");
  CHECK(client.ReadLines(3) == std::vector<std::string>{"3:cd", "4:", "5:e"});
  CHECK(server.Stop().ok());
}

TEST_CASE("A handler that stops at its output budget gets the rest of the lines later",
          "[line_server]") {
  NumberingHandler handler;
  ServerThread server({}, handler);
  Client client(server.port());
  // 20,000 lines of 1 KiB, sent while the client reads nothing for a
  // second: the answers fill the socket's buffers, then 1 MiB of unsent
  // output, where the handler is stopped; reading, the client gets them all.
  constexpr int kLines = 20000;
  const std::string payload(1024, 'x');
  std::string lines;
  for (int i = 0; i < kLines; ++i) absl::StrAppend(&lines, payload, "\n");
  std::thread sender([&client, &lines] { client.Send(lines); });
  std::this_thread::sleep_for(std::chrono::seconds(1));
  const std::vector<std::string> answers = client.ReadLines(kLines);
  sender.join();
  REQUIRE(answers.size() == kLines);
  for (int i = 0; i < kLines; ++i) {
    if (answers[i] != absl::StrCat(i + 1, ":", payload)) FAIL("answer " << i + 1 << " out of order");
  }
  CHECK(server.Stop().ok());
  CHECK(handler.stops_at_budget > 0);
  for (const std::size_t batch : handler.batches) CHECK(batch <= kMaxLinesPerBatch);
}

TEST_CASE("An over-long line gets an error line and its connection is closed, others go on",
          "[line_server][errors]") {
  NumberingHandler handler;
  LineServerOptions options;
  options.max_line_bytes = 16;
  ServerThread server(options, handler);
  Client other(server.port());
  Client client(server.port());
  client.Send("short\n" + std::string(40, 'y') + "\n");
  CHECK(client.ReadLine() == "1:short");
  const std::optional<std::string> refusal = client.ReadLine();
  REQUIRE(refusal.has_value());
  CHECK(refusal->rfind("error: ", 0) == 0);
  CHECK(refusal->find("16") != std::string::npos);
  CHECK_FALSE(client.ReadLine().has_value());  // closed
  other.Send("still here\n");
  CHECK(other.ReadLine() == "2:still here");
  CHECK(server.Stop().ok());
}

TEST_CASE("A connection beyond max_connections gets an error line and is closed",
          "[line_server][errors]") {
  NumberingHandler handler;
  LineServerOptions options;
  options.max_connections = 1;
  ServerThread server(options, handler);
  Client first(server.port());
  first.Send("one\n");
  CHECK(first.ReadLine() == "1:one");
  Client second(server.port());
  const std::optional<std::string> refusal = second.ReadLine();
  REQUIRE(refusal.has_value());
  CHECK(refusal->rfind("error: ", 0) == 0);
  CHECK_FALSE(second.ReadLine().has_value());
  first.Send("two\n");
  CHECK(first.ReadLine() == "2:two");
  CHECK(server.Stop().ok());
}

TEST_CASE("SIGHUP runs the hang-up action and serving goes on, SIGTERM answers what arrived",
          "[line_server][signals]") {
  NumberingHandler handler;
  ServerThread server({}, handler);
  Client client(server.port());
  client.Send("before\n");
  CHECK(client.ReadLine() == "1:before");
  server.Signal(SIGHUP);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (server.hangups() == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(server.hangups() == 1);
  client.Send("after\n");
  CHECK(client.ReadLine() == "2:after");
  // Lines sent just before the stop are answered before the connection ends.
  std::string burst;
  for (int i = 0; i < 100; ++i) absl::StrAppend(&burst, "last", i, "\n");
  client.Send(burst);
  CHECK(server.Stop().ok());
  const std::vector<std::string> answers = client.ReadLines(100);
  REQUIRE(answers.size() == 100);
  CHECK(answers.back() == "102:last99");
  CHECK_FALSE(client.ReadLine().has_value());
}

}  // namespace
}  // namespace rffstream::app
