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
#include "tests/line_client.h"
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
