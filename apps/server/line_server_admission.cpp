// The line server's admission of connections: accepting them (up to
// --max_connections), pausing while descriptors run out, closing idle ones,
// and logging the counts.
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "server/line_server.h"
#include "server/line_server_connection.h"

namespace rffstream::app {
namespace {

// While descriptors run out (EMFILE), accepting waits for a connection to
// close, or this long, and the failure is logged at most this often.
constexpr absl::Duration kAcceptRetry = absl::Seconds(1);
// Connection counts go to the log at most this often.
constexpr absl::Duration kLogInterval = absl::Seconds(5);

}  // namespace

LineServer::LineServer(int listen_fd, LineServerOptions options, LineHandler handler,
                       std::FILE* log)
    : listen_fd_(listen_fd), options_(options), handler_(std::move(handler)), log_(log) {
  if (options_.max_buffered_input_bytes == 0) {
    options_.max_buffered_input_bytes = std::max<std::size_t>(64 << 20, 4 * options_.max_line_bytes);
  }
}

bool LineServer::BufferedInputFits() const {
  std::size_t total = 0;
  for (const auto& [fd, connection] : connections_) total += connection->input.size();
  return total <= options_.max_buffered_input_bytes;
}

LineServer::~LineServer() {
  for (auto& [fd, connection] : connections_) ::close(fd);
  if (listen_fd_ >= 0) ::close(listen_fd_);
  if (epoll_fd_ >= 0) ::close(epoll_fd_);
}

void LineServer::LogCounts(bool force) {
  const absl::Time now = absl::Now();
  if (!force && (accepted_ == logged_accepted_ || now - last_log_ < kLogInterval)) return;
  std::fprintf(log_,
               "rffstream serve: connections open %d, accepted %" PRId64 ", closed %" PRId64
               ", refused %" PRId64 "\n",
               open_connections(), accepted_, closed_, refused_);
  last_log_ = now;
  logged_accepted_ = accepted_;
}

void LineServer::Accept() {
  while (true) {
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        PauseAccepting(errno);
      } else if (errno != EAGAIN && errno != EWOULDBLOCK) {
        std::fprintf(log_, "rffstream serve: accept failed: %s\n", std::strerror(errno));
      }
      return;
    }
    if (open_connections() >= options_.max_connections) {
      const std::string refusal = absl::StrCat("error: too many connections (limit ",
                                               options_.max_connections, ")\n");
      // Best effort: the client may already be gone.
      (void)::send(fd, refusal.data(), refusal.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      ::close(fd);
      ++refused_;
      continue;
    }
    // Responses are small and answer requests: send them now, not after
    // Nagle's wait for an acknowledgement (fails harmlessly on Unix sockets).
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    auto connection = std::make_unique<Connection>();
    connection->fd = fd;
    epoll_event event{};
    event.events = EPOLLIN | EPOLLRDHUP;
    event.data.fd = fd;
    if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &event) != 0) {
      ::close(fd);
      continue;
    }
    connections_.emplace(fd, std::move(connection));
    ++accepted_;
  }
}

void LineServer::PauseAccepting(int error) {
  ++accept_failures_;
  const absl::Time now = absl::Now();
  if (now - last_accept_failure_log_ >= kAcceptRetry) {
    std::fprintf(log_,
                 "rffstream serve: cannot accept: %s (%" PRId64 " failures since the last message); "
                 "waiting for a connection to close\n",
                 std::strerror(error), accept_failures_);
    last_accept_failure_log_ = now;
    accept_failures_ = 0;
  }
  // The pending connection stays in the backlog; the level-triggered
  // listening socket would report it again at once, so stop watching it.
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, listen_fd_, nullptr);
  accept_resume_at_ = now + kAcceptRetry;
}

void LineServer::ResumeAccepting() {
  if (accept_resume_at_ == absl::InfinitePast() || listen_fd_ < 0) return;
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.fd = listen_fd_;
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, listen_fd_, &event);
  accept_resume_at_ = absl::InfinitePast();
}

void LineServer::Close(int fd) {
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
  ::close(fd);
  connections_.erase(fd);
  ++closed_;
  ResumeAccepting();  // a descriptor is free again
}

void LineServer::CloseIdleConnections() {
  if (options_.idle_timeout <= absl::ZeroDuration()) return;
  const absl::Time now = absl::Now();
  std::vector<int> idle;
  for (auto& [fd, connection] : connections_) {
    if (now - connection->last_activity >= options_.idle_timeout) idle.push_back(fd);
  }
  for (int fd : idle) {
    Connection& connection = *connections_.at(fd);
    if (connection.close_after_flush) {
      Close(fd);  // told, and still not reading its last answers: gone
      continue;
    }
    connection.output += "error: idle timeout\n";
    connection.close_after_flush = true;
    connection.last_activity = now;  // a grace period to read it
    Pump(connection);
  }
}

}  // namespace rffstream::app
