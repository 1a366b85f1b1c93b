// File: apps/listen_address.h
//
// Where `rffstream serve` listens: "HOST:PORT" (IPv4, or IPv6 in brackets,
// "[::1]:PORT"), or "unix:/path/to/socket". Port 0 lets the OS pick one.
#ifndef RFFSTREAM_APPS_LISTEN_ADDRESS_H_
#define RFFSTREAM_APPS_LISTEN_ADDRESS_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace rffstream::app {

struct ListenAddress {
  bool is_unix = false;
  std::string host;  // numeric IPv4 or IPv6 address
  int port = 0;
  std::string path;  // of the Unix socket
};

[[nodiscard]] absl::StatusOr<ListenAddress> ParseListenAddress(std::string_view text);

// A listening, non-blocking socket bound to `address` (a stale Unix socket
// file is replaced). Returns the descriptor.
[[nodiscard]] absl::StatusOr<int> OpenListeningSocket(const ListenAddress& address);

// "127.0.0.1:40411", "[::1]:40411" or "unix:/path": where `fd` is bound.
std::string DescribeBoundAddress(int fd, const ListenAddress& address);

// The port `fd` is bound to (0 for Unix sockets).
int BoundPort(int fd);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_LISTEN_ADDRESS_H_
