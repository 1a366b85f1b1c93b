// File: tests/line_client.h
//
// A client of a line server, over a real TCP connection to 127.0.0.1 or a
// Unix socket: sends text, reads answer lines (with a timeout, so a server
// that never answers fails the test instead of hanging it).
#ifndef RFFSTREAM_TESTS_LINE_CLIENT_H_
#define RFFSTREAM_TESTS_LINE_CLIENT_H_

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace rffstream::testing {

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

}  // namespace rffstream::testing

#endif  // RFFSTREAM_TESTS_LINE_CLIENT_H_
