// Load generator for `rffstream serve`: N connections each stream M CSV lines
// with up to W lines in flight (W = 1: request-response latency; larger W:
// pipelined throughput), and report requests per second and the latency
// distribution of request -> response on loopback.
//
//   build/apps/rffstream serve --listen=127.0.0.1:7878 --features=256 &
//   build/bench/serve_load --port=7878 --connections=16 --lines=20000 --window=64 --inputs=16
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  int port = 7878;
  int connections = 1;
  int lines = 10000;
  int window = 1;
  int inputs = 16;
};

// One connection's run: returns the latency of each request in microseconds.
std::vector<double> RunConnection(const Options& options, int id) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(options.port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    std::perror("serve_load: connect");
    std::exit(1);
  }
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  std::vector<std::string> lines(options.lines);
  for (int t = 0; t < options.lines; ++t) {
    std::string& line = lines[t];
    for (int j = 0; j <= options.inputs; ++j) {
      line += std::to_string(std::sin(0.37 * t + 1.3 * j + id));
      line += j < options.inputs ? ',' : '\n';
    }
  }
  std::vector<double> latencies;
  latencies.reserve(options.lines);
  std::deque<Clock::time_point> in_flight;
  std::string received;
  char buffer[65536];
  int sent = 0, answered = 0;
  while (answered < options.lines) {
    std::string batch;
    while (sent < options.lines && static_cast<int>(in_flight.size()) < options.window) {
      batch += lines[sent++];
      in_flight.push_back(Clock::now());
    }
    if (!batch.empty() && ::send(fd, batch.data(), batch.size(), MSG_NOSIGNAL) < 0) break;
    const ssize_t got = ::recv(fd, buffer, sizeof(buffer), 0);
    if (got <= 0) break;
    const Clock::time_point now = Clock::now();
    for (ssize_t i = 0; i < got; ++i) {
      if (buffer[i] != '\n') continue;
      latencies.push_back(std::chrono::duration<double, std::micro>(now - in_flight.front()).count());
      in_flight.pop_front();
      ++answered;
    }
  }
  ::close(fd);
  return latencies;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    int* target = nullptr;
    const char* value = nullptr;
    for (auto [name, field] : {std::pair{"--port=", &options.port},
                               std::pair{"--connections=", &options.connections},
                               std::pair{"--lines=", &options.lines},
                               std::pair{"--window=", &options.window},
                               std::pair{"--inputs=", &options.inputs}}) {
      if (std::strncmp(argv[i], name, std::strlen(name)) == 0) {
        target = field;
        value = argv[i] + std::strlen(name);
      }
    }
    if (target == nullptr) {
      std::fprintf(stderr, "usage: %s [--port=P] [--connections=N] [--lines=M] [--window=W] [--inputs=D]\n", argv[0]);
      return 2;
    }
    *target = std::atoi(value);
  }
  std::vector<std::vector<double>> results(options.connections);
  const Clock::time_point start = Clock::now();
  std::vector<std::thread> threads;
  for (int c = 0; c < options.connections; ++c) {
    threads.emplace_back([&, c] { results[c] = RunConnection(options, c); });
  }
  for (std::thread& thread : threads) thread.join();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::vector<double> all;
  for (const auto& latencies : results) all.insert(all.end(), latencies.begin(), latencies.end());
  std::sort(all.begin(), all.end());
  const auto at = [&](double quantile) {
    return all.empty() ? 0.0 : all[std::min(all.size() - 1, static_cast<size_t>(quantile * all.size()))];
  };
  std::printf("connections %d, window %d: %zu requests in %.3f s = %.0f requests/s; latency us p50 %.1f p99 %.1f p99.9 %.1f max %.1f\n",
              options.connections, options.window, all.size(), seconds, all.size() / seconds,
              at(0.5), at(0.99), at(0.999), all.empty() ? 0.0 : all.back());
  return all.size() == static_cast<size_t>(options.connections) * options.lines ? 0 : 1;
}
