#include "server/line_server.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
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
#include "server/line_server_connection.h"

namespace rffstream::app {
namespace {

constexpr int kMaxEvents = 256;
constexpr std::size_t kReadChunk = 1 << 16;
// How long a shutdown waits for slow readers to take their last responses.
constexpr absl::Duration kDrainTimeout = absl::Seconds(5);

}  // namespace

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
    if (!batch_.empty()) {
      const std::size_t answered = handler_(batch_, connection.output, kMaxUnsentBytes);
      if (answered < batch_.size()) {
        // Stopped at the output budget: the rest wait for the client to read.
        start = static_cast<std::size_t>(batch_[answered].data() - connection.input.data());
        too_long = false;
        break;
      }
      connection.last_activity = absl::Now();
    }
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
      AnswerLines(connection);
      // Only a connection holding a long unfinished line can tip the sum.
      if (connection.input.size() > kReadChunk && !BufferedInputFits()) {
        connection.input.clear();
        connection.output += "error: the server holds too much unfinished input; try again later\n";
        connection.close_after_flush = true;
      }
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
  if (connection.answers_unread) {
    connection.output.clear();
    connection.output_sent = 0;
    return true;
  }
  while (connection.unsent() > 0) {
    const ssize_t sent = ::send(connection.fd, connection.output.data() + connection.output_sent,
                                connection.unsent(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent > 0) {
      connection.output_sent += static_cast<std::size_t>(sent);
      connection.last_activity = absl::Now();
      continue;
    }
    if (sent < 0 && errno == EINTR) continue;
    if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    // The client went away mid-response: what it sent is still learned.
    // Another error (no buffers, say) closes the connection, as it cannot
    // be told from a client that would wait for answers forever.
    if (sent < 0 && errno != EPIPE && errno != ECONNRESET) return false;
    connection.answers_unread = true;
    connection.output.clear();
    connection.output_sent = 0;
    return true;
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

void LineServer::DrainAndClose() {
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, listen_fd_, nullptr);
  ::close(listen_fd_);
  listen_fd_ = -1;
  std::vector<int> open;
  for (auto& [fd, connection] : connections_) open.push_back(fd);
  for (int fd : open) OnEvent(*connections_.at(fd), EPOLLIN, /*until_drained=*/true);
  const absl::Time deadline = absl::Now() + kDrainTimeout;
  epoll_event events[kMaxEvents];
  while (!connections_.empty() && absl::Now() < deadline) {
    const int ready = ::epoll_wait(epoll_fd_, events, kMaxEvents, 100);
    for (int i = 0; i < ready; ++i) {
      const auto found = connections_.find(events[i].data.fd);
      if (found != connections_.end()) OnEvent(*found->second, events[i].events, true);
    }
  }
}

absl::Status LineServer::Run(int signal_fd, std::function<void()> on_hangup) {
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
        if (::read(signal_fd, &info, sizeof(info)) != sizeof(info)) continue;
        if (info.ssi_signo == SIGHUP) {
          if (on_hangup) on_hangup();
          continue;
        }
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
  DrainAndClose();
  LogCounts(true);
  return absl::OkStatus();
}

}  // namespace rffstream::app
