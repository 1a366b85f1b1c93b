#include "server/listen_address.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace rffstream::app {
namespace {

constexpr int kBacklog = 512;

absl::Status SocketError(std::string_view what, const std::string& where) {
  return absl::UnavailableError(
      absl::StrCat("cannot ", std::string(what), " ", where, ": ", std::strerror(errno)));
}

// A Unix socket path may be reused only when nothing else is there: a stale
// socket file left by a server that died (connecting to it is refused) is
// removed; a live server's socket, or any file that is not a socket, is
// refused, as a TCP address in use is.
absl::Status ClaimUnixSocketPath(const std::string& path, const sockaddr_un& name) {
  struct stat status;
  if (::lstat(path.c_str(), &status) != 0) {
    if (errno == ENOENT) return absl::OkStatus();
    return SocketError("inspect", "unix:" + path);
  }
  if (!S_ISSOCK(status.st_mode)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "cannot listen on unix:", path, ": the path exists and is not a socket (it is left as it is)"));
  }
  // Non-blocking: a live server whose backlog is full answers EAGAIN, not a wait.
  const int probe = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (probe < 0) return SocketError("create a socket for", path);
  const bool live = ::connect(probe, reinterpret_cast<const sockaddr*>(&name), sizeof(name)) == 0 ||
                    (errno != ECONNREFUSED && errno != ENOENT);
  ::close(probe);
  if (live) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot listen on unix:", path, ": another server is listening there"));
  }
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    return SocketError("remove the stale socket", "unix:" + path);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ListenAddress> ParseListenAddress(std::string_view text) {
  ListenAddress address;
  const std::string original(text);
  if (text.substr(0, 5) == "unix:") {
    address.is_unix = true;
    address.path = std::string(text.substr(5));
    if (address.path.empty() || address.path.size() >= sizeof(sockaddr_un::sun_path)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--listen=", original, ": the socket path is empty or too long"));
    }
    return address;
  }
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("--listen=", original, ": expected HOST:PORT, [IPV6]:PORT or unix:PATH"));
  }
  std::string_view host = text.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  address.host = std::string(host);
  in6_addr ignored6;
  in_addr ignored4;
  if (inet_pton(AF_INET, address.host.c_str(), &ignored4) != 1 &&
      inet_pton(AF_INET6, address.host.c_str(), &ignored6) != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("--listen=", original, ": '", address.host, "' is not a numeric IP address"));
  }
  if (!absl::SimpleAtoi(std::string(text.substr(colon + 1)), &address.port) || address.port < 0 ||
      address.port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("--listen=", original, ": the port must be 0..65535"));
  }
  return address;
}

absl::StatusOr<int> OpenListeningSocket(const ListenAddress& address) {
  if (address.is_unix) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return SocketError("create a socket for", address.path);
    sockaddr_un name{};
    name.sun_family = AF_UNIX;
    std::strncpy(name.sun_path, address.path.c_str(), sizeof(name.sun_path) - 1);
    if (absl::Status claimed = ClaimUnixSocketPath(address.path, name); !claimed.ok()) {
      ::close(fd);
      return claimed;
    }
    if (::bind(fd, reinterpret_cast<sockaddr*>(&name), sizeof(name)) != 0 ||
        ::listen(fd, kBacklog) != 0) {
      absl::Status error = SocketError("listen on", "unix:" + address.path);
      ::close(fd);
      return error;
    }
    return fd;
  }
  sockaddr_storage storage{};
  socklen_t length = 0;
  int family = AF_INET;
  if (auto* v4 = reinterpret_cast<sockaddr_in*>(&storage);
      inet_pton(AF_INET, address.host.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(static_cast<uint16_t>(address.port));
    length = sizeof(sockaddr_in);
  } else {
    auto* v6 = reinterpret_cast<sockaddr_in6*>(&storage);
    inet_pton(AF_INET6, address.host.c_str(), &v6->sin6_addr);
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(static_cast<uint16_t>(address.port));
    length = sizeof(sockaddr_in6);
    family = AF_INET6;
  }
  const std::string where = absl::StrCat(address.host, ":", address.port);
  const int fd = ::socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return SocketError("create a socket for", where);
  const int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (::bind(fd, reinterpret_cast<sockaddr*>(&storage), length) != 0 ||
      ::listen(fd, kBacklog) != 0) {
    absl::Status error = SocketError("listen on", where);
    ::close(fd);
    return error;
  }
  return fd;
}

absl::StatusOr<UnixSocketFile> IdentifyUnixSocketFile(const std::string& path) {
  struct stat status;
  if (::lstat(path.c_str(), &status) != 0) return SocketError("inspect", "unix:" + path);
  return UnixSocketFile{path, status.st_dev, status.st_ino};
}

void RemoveUnixSocketFile(const UnixSocketFile& file) {
  struct stat status;
  if (::lstat(file.path.c_str(), &status) == 0 && S_ISSOCK(status.st_mode) &&
      status.st_dev == file.device && status.st_ino == file.inode) {
    ::unlink(file.path.c_str());
  }
}

int BoundPort(int fd) {
  sockaddr_storage storage{};
  socklen_t length = sizeof(storage);
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&storage), &length) != 0) return 0;
  if (storage.ss_family == AF_INET) return ntohs(reinterpret_cast<sockaddr_in*>(&storage)->sin_port);
  if (storage.ss_family == AF_INET6) {
    return ntohs(reinterpret_cast<sockaddr_in6*>(&storage)->sin6_port);
  }
  return 0;
}

std::string DescribeBoundAddress(int fd, const ListenAddress& address) {
  if (address.is_unix) return "unix:" + address.path;
  const bool v6 = address.host.find(':') != std::string::npos;
  return absl::StrCat(v6 ? "[" : "", address.host, v6 ? "]" : "", ":", BoundPort(fd));
}

}  // namespace rffstream::app
