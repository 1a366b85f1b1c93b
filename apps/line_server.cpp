#include "line_server.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"

namespace rffstream::app {
namespace {

constexpr int kMaxEvents = 256;
constexpr std::size_t kReadChunk = 1 << 16;
// Backpressure: a connection whose unsent responses reach this many bytes is
// neither read nor answered until they drain below it.
constexpr std::size_t kMaxUnsentBytes = 1 << 20;
// While descriptors run out (EMFILE), accepting waits for a connection to
// close, or this long, and the failure is logged at most this often.
constexpr absl::Duration kAcceptRetry = absl::Seconds(1);
// Connection counts go to the log at most this often.
constexpr absl::Duration kLogInterval = absl::Seconds(5);
// How long a shutdown waits for slow readers to take their last responses.
constexpr absl::Duration kDrainTimeout = absl::Seconds(5);

}  // namespace

struct LineServer::Connection {
  int fd = -1;
  std::string input;           // bytes received, not yet answered
  std::string output;          // responses not yet sent
  std::size_t output_sent = 0;
  // No more input will be read: the client closed its side, or the server
  // is stopping and has read all there was. Complete lines still get answers.
  bool input_done = false;
  // After the output is sent, close (an over-long line, a send error, idleness).
  bool close_after_flush = false;
  std::uint32_t interest = EPOLLIN | EPOLLRDHUP;  // the events registered with epoll
  absl::Time last_activity = absl::Now();

  std::size_t unsent() const { return output.size() - output_sent; }
  // Backpressure: stop reading and answering until the client reads.
  bool output_full() const { return unsent() >= kMaxUnsentBytes; }
  bool has_complete_line() const { return input.find('\n') != std::string::npos; }
};

LineServer::LineServer(int listen_fd, LineServerOptions options, LineHandler handler,
                       std::FILE* log)
    : listen_fd_(listen_fd), options_(options), handler_(std::move(handler)), log_(log) {}

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

void LineServer::UpdateInterest(Connection& connection) {
  // Reading stops when the output is full or the connection is closing:
  // level-triggered events that would only be ignored would spin the loop.
  const bool reading =
      !connection.close_after_flush && !connection.input_done && !connection.output_full();
  std::uint32_t interest = reading ? EPOLLIN | EPOLLRDHUP : 0;
  if (connection.unsent() > 0) interest |= EPOLLOUT;
  if (interest == connection.interest) return;
  epoll_event event{};
  event.events = interest;
  event.data.fd = connection.fd;
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, connection.fd, &event);
  connection.interest = interest;
}

void LineServer::AnswerLines(Connection& connection) {
  std::size_t start = 0;
  bool too_long = false;
  while (!connection.close_after_flush && !too_long && !connection.output_full()) {
    batch_.clear();
    std::size_t next = start;
    while (batch_.size() < kMaxLinesPerBatch) {
      const std::size_t newline = connection.input.find('\n', next);
      if (newline == std::string::npos) break;
      std::string_view line(connection.input.data() + next, newline - next);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.size() > options_.max_line_bytes) {
        too_long = true;  // answered after the lines before it
        break;
      }
      batch_.push_back(line);
      next = newline + 1;
    }
    if (batch_.empty() && !too_long) break;
    if (!batch_.empty()) handler_(batch_, connection.output);
    start = next;
  }
  if (too_long) {
    absl::StrAppend(&connection.output, "error: line longer than ", options_.max_line_bytes,
                    " bytes\n");
    connection.close_after_flush = true;
  }
  connection.input.erase(0, start);
  // The unfinished line after the complete ones held back by backpressure.
  const std::size_t last_newline = connection.input.rfind('\n');
  const std::size_t unfinished = last_newline == std::string::npos
                                     ? connection.input.size()
                                     : connection.input.size() - last_newline - 1;
  if (!connection.close_after_flush && unfinished > options_.max_line_bytes) {
    absl::StrAppend(&connection.output, "error: line longer than ", options_.max_line_bytes,
                    " bytes\n");
    connection.close_after_flush = true;
  }
  if (connection.close_after_flush) connection.input.clear();
}

void LineServer::OnReadable(Connection& connection, bool until_drained) {
  char buffer[kReadChunk];
  // One chunk per event keeps busy connections from starving the others (the
  // level-triggered epoll reports the rest again); a shutdown drains all.
  for (bool first = true; first || until_drained; first = false) {
    if (connection.close_after_flush || connection.input_done || connection.output_full()) return;
    const ssize_t got = ::recv(connection.fd, buffer, sizeof(buffer), 0);
    if (got > 0) {
      connection.input.append(buffer, static_cast<std::size_t>(got));
      connection.last_activity = absl::Now();
      AnswerLines(connection);
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (until_drained) connection.input_done = true;  // stopping: all there was is read
      return;
    }
    // End of input (or a reset): a partial last line is dropped, not learned;
    // the complete lines still held get their answers.
    const std::size_t last_newline = connection.input.rfind('\n');
    connection.input.erase(last_newline == std::string::npos ? 0 : last_newline + 1);
    connection.input_done = true;
    return;
  }
}

bool LineServer::SendOutput(Connection& connection) {
  while (connection.unsent() > 0) {
    const ssize_t sent = ::send(connection.fd, connection.output.data() + connection.output_sent,
                                connection.unsent(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent > 0) {
      connection.output_sent += static_cast<std::size_t>(sent);
      continue;
    }
    if (sent < 0 && errno == EINTR) continue;
    if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    return false;  // the client went away mid-response
  }
  // Keep only the unsent bytes, so a slow reader's buffer stays bounded.
  if (connection.output_sent == connection.output.size()) {
    connection.output.clear();
    connection.output_sent = 0;
  } else if (connection.output_sent >= connection.output.size() / 2) {
    connection.output.erase(0, connection.output_sent);
    connection.output_sent = 0;
  }
  return true;
}

bool LineServer::Pump(Connection& connection) {
  while (true) {
    AnswerLines(connection);
    if (!SendOutput(connection)) {
      Close(connection.fd);
      return false;
    }
    // Lines held back by backpressure are answered as soon as the output
    // has gone, not when the client happens to send more.
    if (connection.unsent() > 0 || connection.close_after_flush ||
        !connection.has_complete_line()) {
      break;
    }
  }
  const bool finished = connection.close_after_flush ||
                        (connection.input_done && !connection.has_complete_line());
  if (finished && connection.unsent() == 0) {
    Close(connection.fd);
    return false;
  }
  UpdateInterest(connection);
  return true;
}

void LineServer::OnEvent(Connection& connection, std::uint32_t events, bool until_drained) {
  if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) OnReadable(connection, until_drained);
  Pump(connection);
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

absl::Status LineServer::Run(int signal_fd) {
  epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd_ < 0) return absl::InternalError(absl::StrCat("epoll: ", std::strerror(errno)));
  for (int fd : {listen_fd_, signal_fd}) {
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.fd = fd;
    if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &event) != 0) {
      return absl::InternalError(absl::StrCat("epoll: ", std::strerror(errno)));
    }
  }
  epoll_event events[kMaxEvents];
  const int wait_ms = options_.idle_timeout > absl::ZeroDuration() ? 200 : 1000;
  bool stopping = false;
  while (!stopping) {
    const int ready = ::epoll_wait(epoll_fd_, events, kMaxEvents, wait_ms);
    if (absl::Now() >= accept_resume_at_) ResumeAccepting();
    if (ready < 0 && errno != EINTR) {
      return absl::InternalError(absl::StrCat("epoll_wait: ", std::strerror(errno)));
    }
    for (int i = 0; i < ready; ++i) {
      const int fd = events[i].data.fd;
      if (fd == signal_fd) {
        signalfd_siginfo info;
        (void)::read(signal_fd, &info, sizeof(info));
        std::fprintf(log_, "rffstream serve: signal %u, stopping\n", info.ssi_signo);
        stopping = true;
        continue;
      }
      if (fd == listen_fd_) {
        Accept();
        continue;
      }
      const auto found = connections_.find(fd);
      if (found == connections_.end()) continue;  // closed earlier in this batch
      OnEvent(*found->second, events[i].events, /*until_drained=*/false);
    }
    CloseIdleConnections();
    LogCounts(false);
  }
  // Stop accepting; answer what has arrived; give readers a bounded time.
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, listen_fd_, nullptr);
  ::close(listen_fd_);
  listen_fd_ = -1;
  std::vector<int> open;
  for (auto& [fd, connection] : connections_) open.push_back(fd);
  for (int fd : open) OnEvent(*connections_.at(fd), EPOLLIN, /*until_drained=*/true);
  const absl::Time deadline = absl::Now() + kDrainTimeout;
  while (!connections_.empty() && absl::Now() < deadline) {
    const int ready = ::epoll_wait(epoll_fd_, events, kMaxEvents, 100);
    for (int i = 0; i < ready; ++i) {
      const auto found = connections_.find(events[i].data.fd);
      if (found != connections_.end()) OnEvent(*found->second, events[i].events, true);
    }
  }
  LogCounts(true);
  return absl::OkStatus();
}

}  // namespace rffstream::app
