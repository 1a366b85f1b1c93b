// File: apps/server/line_server.h
//
// A single-threaded epoll server for newline-delimited requests over TCP or
// Unix sockets: every request line gets exactly one response line, in order,
// on its connection. One thread owns the model, so requests from different
// connections are applied one at a time, in arrival order, with no locks and
// no torn reads; a connection's lines keep their order.
//
// Limits: a line longer than max_line_bytes gets an error line and the
// connection is closed; connections beyond max_connections get an error line
// and are closed. A client that disconnects mid-line or mid-response costs
// nothing else. Memory per connection is bounded: a client that sends
// without reading stops being read (and answered) once 1 MiB of its
// responses are unsent, until it reads them, and a handler stops answering
// a batch once that much is waiting, so even answers that are large (a
// classifier's !stats) are produced only as fast as they are read. The
// unfinished lines of all connections together are bounded too
// (max_buffered_input_bytes): a connection that would pass the bound gets an
// error line and is closed. The idle timeout (on by default) closes a
// connection that neither completed a request line nor took any of its
// answers for that long, so a client trickling a byte at a time, or one that
// stops reading, is closed as surely as a silent one. When descriptors run
// out (EMFILE), accepting pauses until a connection closes (or a second
// passes) and the failure is logged at most once a second.
// SIGINT/SIGTERM (through the signal descriptor given to Run) stop accepting,
// answer every complete line already received, flush, and return; SIGHUP
// runs the hang-up action given to Run and goes on serving.
#ifndef RFFSTREAM_APPS_LINE_SERVER_H_
#define RFFSTREAM_APPS_LINE_SERVER_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "core/options.h"

namespace rffstream::app {

struct LineServerOptions {
  int max_connections = 1024;
  std::size_t max_line_bytes = 1 << 20;
  absl::Duration idle_timeout = absl::Seconds(kDefaultIdleTimeoutSeconds);  // zero: none
  // Unfinished input of all connections together; 0: 64 MiB or 4 lines of
  // max_line_bytes, whichever is more.
  std::size_t max_buffered_input_bytes = 0;
};

// Answers request lines (without their '\n'): appends one response line,
// '\n' included, per request line to `output`, in order, and returns how
// many lines it answered: all of them, or fewer once `output` holds
// `output_budget` bytes or more (the rest come again later, when the client
// has read). The lines are the complete ones that one read of one
// connection brought (at most kMaxLinesPerBatch), so a handler may treat
// them as a batch.
using LineHandler = std::function<std::size_t(std::span<const std::string_view> lines,
                                              std::string& output, std::size_t output_budget)>;
inline constexpr std::size_t kMaxLinesPerBatch = 512;

class LineServer {
 public:
  // Takes ownership of the listening socket.
  LineServer(int listen_fd, LineServerOptions options, LineHandler handler, std::FILE* log);
  ~LineServer();

  // Serves until the signal descriptor (a signalfd for SIGINT, SIGTERM and
  // SIGHUP) reports SIGINT or SIGTERM, then drains as described above;
  // SIGHUP runs `on_hangup` (when set) between requests.
  [[nodiscard]] absl::Status Run(int signal_fd, std::function<void()> on_hangup = {});

  int open_connections() const { return static_cast<int>(connections_.size()); }
  std::int64_t accepted_connections() const { return accepted_; }

 private:
  struct Connection;

  void Accept();
  // Reads what epoll reported on the connection, then answers and sends.
  void OnEvent(Connection& connection, std::uint32_t events, bool until_drained);
  // Reads one chunk, or everything available when `until_drained`.
  void OnReadable(Connection& connection, bool until_drained);
  // Answers the complete lines in the read buffer, while the output has room.
  void AnswerLines(Connection& connection);
  // Sends what the socket takes; once the client is gone (reset, broken
  // pipe), drops the answers (its lines are still learned). False on
  // another error: the connection is to be closed.
  bool SendOutput(Connection& connection);
  // Answers and sends as far as the client reads; closes a finished
  // connection. False once the connection is closed (and destroyed).
  bool Pump(Connection& connection);
  // Registers the events the connection's state calls for (backpressure).
  void UpdateInterest(Connection& connection);
  void PauseAccepting(int error);
  void ResumeAccepting();
  void Close(int fd);
  void CloseIdleConnections();
  // The stop: no more accepting; what has arrived is answered, and readers
  // get a bounded time (kDrainTimeout) to take their answers.
  void DrainAndClose();
  // Whether the unfinished input of every connection fits the bound.
  bool BufferedInputFits() const;
  void LogCounts(bool force);

  int listen_fd_;
  int epoll_fd_ = -1;
  LineServerOptions options_;
  LineHandler handler_;
  std::vector<std::string_view> batch_;  // reused by AnswerLines
  std::FILE* log_;
  std::unordered_map<int, std::unique_ptr<Connection>> connections_;
  std::int64_t accepted_ = 0;
  std::int64_t refused_ = 0;
  std::int64_t closed_ = 0;
  absl::Time last_log_ = absl::InfinitePast();
  std::int64_t logged_accepted_ = -1;
  // Accepting paused for lack of descriptors until then (InfinitePast: not paused).
  absl::Time accept_resume_at_ = absl::InfinitePast();
  absl::Time last_accept_failure_log_ = absl::InfinitePast();
  std::int64_t accept_failures_ = 0;
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_LINE_SERVER_H_
