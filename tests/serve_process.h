// File: tests/serve_process.h
//
// `rffstream serve` as its tests see it: the built binary started as a
// child process (ServerProcess) and clients on real sockets, 127.0.0.1 or a
// Unix path (Client), whose reads time out instead of hanging a test.
#ifndef RFFSTREAM_TESTS_SERVE_PROCESS_H_
#define RFFSTREAM_TESTS_SERVE_PROCESS_H_

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/child_process.h"
#include "tests/temp_dir.h"

namespace rffstream::testing {

// Settings given, so that a server answers from the first line: the tests
// of the protocol's mechanics need no warm-up window.
inline const std::string kNoWarmUp[] = {"--standardize=0", "--gamma=0.5", "--ridge=0.01"};

class ServerProcess {
 public:
  // Starts `rffstream serve` with `arguments` plus a port file, and waits
  // until it listens. `open_files`, when positive, is its `ulimit -n` (soft
  // and hard).
  ServerProcess(const TempDir& dir, std::vector<std::string> arguments, bool unix_socket = false,
                int open_files = 0)
      : port_file_(dir.File("port")), log_(dir.File("server.log")) {
    std::vector<std::string> argv = {RFFSTREAM_APP_PATH, "serve", "--port_file=" + port_file_};
    if (open_files > 0) {
      argv.insert(argv.begin(), {"/bin/sh", "-c",
                                 "ulimit -n " + std::to_string(open_files) + " && exec \"$0\" \"$@\""});
    }
    if (!unix_socket) argv.push_back("--listen=127.0.0.1:0");
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    pid_ = rffstream::testing::Spawn(std::move(argv), log_);
    REQUIRE(pid_ > 0);
    for (int attempt = 0; attempt < 500 && port_ < 0; ++attempt) {
      std::ifstream file(port_file_);
      if (!(file >> port_)) port_ = -1;
      if (port_ < 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    REQUIRE(port_ >= 0);
  }

  ~ServerProcess() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }

  int port() const { return port_; }
  std::string Log() const { return rffstream::testing::ReadText(log_); }

  // A field of /proc/PID/status, in kB ("VmRSS"), or -1.
  long StatusKilobytes(const std::string& field) const {
    std::ifstream status("/proc/" + std::to_string(pid_) + "/status");
    for (std::string line; std::getline(status, line);) {
      if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
    }
    return -1;
  }

  // User plus system CPU time so far, in clock ticks (/proc/PID/stat).
  long CpuTicks() const {
    std::ifstream stat("/proc/" + std::to_string(pid_) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    std::istringstream fields(text.substr(text.rfind(')') + 2));
    std::string field;
    long ticks = 0;
    for (int index = 3; fields >> field && index <= 15; ++index) {
      if (index >= 14) ticks += std::stol(field);  // utime, stime
    }
    return ticks;
  }

  void Signal(int signal) { REQUIRE(::kill(pid_, signal) == 0); }

  // Sends SIGTERM and returns the exit code (-1 if it did not exit in 10 s).
  int Terminate() {
    ::kill(pid_, SIGTERM);
    return rffstream::testing::WaitForExit(pid_, std::chrono::seconds(10));
  }

 private:
  std::string port_file_;
  std::string log_;
  pid_t pid_ = -1;
  int port_ = -1;
};

class Client {
 public:
  explicit Client(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    port_ = port;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0);
    SetTimeout();
  }
  explicit Client(const std::string& unix_path) {
    fd_ = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::snprintf(address.sun_path, sizeof(address.sun_path), "%s", unix_path.c_str());
    REQUIRE(::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0);
    SetTimeout();
  }
  ~Client() { Close(); }

  int fd() const { return fd_; }

  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  void Send(const std::string& text) {
    size_t sent = 0;
    while (sent < text.size()) {
      const ssize_t n = ::send(fd_, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
      REQUIRE(n > 0);
      sent += static_cast<size_t>(n);
    }
  }

  // Sends as much of `text` as the socket takes within `patience` without
  // ever reading: the bytes sent.
  size_t SendWithoutReading(const std::string& text, std::chrono::milliseconds patience) {
    ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) | O_NONBLOCK);
    size_t sent = 0;
    const auto deadline = std::chrono::steady_clock::now() + patience;
    while (sent < text.size() && std::chrono::steady_clock::now() < deadline) {
      const ssize_t n = ::send(fd_, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
      if (n > 0) {
        sent += static_cast<size_t>(n);
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    }
    ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
    return sent;
  }

  // The next line, or nullopt at end of stream or timeout.
  std::optional<std::string> ReadLine() {
    while (true) {
      const size_t newline = buffer_.find('\n');
      if (newline != std::string::npos) {
        std::string line = buffer_.substr(0, newline);
        buffer_.erase(0, newline + 1);
        return line;
      }
      char chunk[65536];
      const ssize_t n = ::recv(fd_, chunk, sizeof(chunk), 0);
      if (n <= 0) return std::nullopt;
      buffer_.append(chunk, static_cast<size_t>(n));
    }
  }

  std::vector<std::string> ReadLines(size_t count) {
    std::vector<std::string> lines;
    while (lines.size() < count) {
      std::optional<std::string> line = ReadLine();
      if (!line) break;
      lines.push_back(*line);
    }
    return lines;
  }

 private:
  void SetTimeout() {
    // Generous: sanitizer builds are several times slower, and a server busy
    // with 64 pipelined clients may not reach one of them for many seconds.
    timeval timeout{120, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  }

  int fd_ = -1;
  int port_ = -1;
  std::string buffer_;
};

inline bool IsNumber(const std::string& text) {
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size();
}

inline std::string DataLine(int client, int t) {
  const double a = std::sin(0.37 * t + client), b = std::cos(0.11 * t * (client % 7 + 1));
  std::ostringstream line;
  line.precision(17);
  line << a << "," << b << "," << (a * b + std::sin(a));
  return line.str();
}

}  // namespace rffstream::testing

#endif  // RFFSTREAM_TESTS_SERVE_PROCESS_H_
