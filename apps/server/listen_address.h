// File: apps/server/listen_address.h
//
// Where `rffstream serve` listens: "HOST:PORT" (IPv4, or IPv6 in brackets,
// "[::1]:PORT"), or "unix:/path/to/socket". Port 0 lets the OS pick one.
#ifndef RFFSTREAM_APPS_LISTEN_ADDRESS_H_
#define RFFSTREAM_APPS_LISTEN_ADDRESS_H_

#include <sys/types.h>

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

// A listening, non-blocking socket bound to `address`. Returns the
// descriptor. A Unix socket path that exists is taken only when it is a
// stale socket (no server answers there); any other file, or a live server's
// socket, is refused (FailedPrecondition) and left alone.
[[nodiscard]] absl::StatusOr<int> OpenListeningSocket(const ListenAddress& address);

// The socket file a Unix listener created, by identity, so that at exit the
// server removes its own socket and never a file that replaced it since.
struct UnixSocketFile {
  std::string path;
  dev_t device = 0;
  ino_t inode = 0;
};
[[nodiscard]] absl::StatusOr<UnixSocketFile> IdentifyUnixSocketFile(const std::string& path);
void RemoveUnixSocketFile(const UnixSocketFile& file);

// "127.0.0.1:40411", "[::1]:40411" or "unix:/path": where `fd` is bound.
std::string DescribeBoundAddress(int fd, const ListenAddress& address);

// The port `fd` is bound to (0 for Unix sockets).
int BoundPort(int fd);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_LISTEN_ADDRESS_H_
