// File: apps/server/line_server_connection.h
//
// One client connection of the line server (line_server.h): its unanswered
// input, its unsent output and its state. Private to the server's sources.
#ifndef RFFSTREAM_APPS_LINE_SERVER_CONNECTION_H_
#define RFFSTREAM_APPS_LINE_SERVER_CONNECTION_H_

#include <sys/epoll.h>

#include <cstdint>
#include <string>

#include "absl/time/clock.h"
#include "server/line_server.h"

namespace rffstream::app {

// Backpressure: a connection whose unsent responses reach this many bytes is
// neither read nor answered until they drain below it.
inline constexpr std::size_t kMaxUnsentBytes = 1 << 20;


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
  // A send failed: the client no longer reads. The lines it sent before it
  // went are still read and learned; their answers are dropped.
  bool answers_unread = false;
  std::uint32_t interest = EPOLLIN | EPOLLRDHUP;  // the events registered with epoll
  // The last time the client completed a request line or took some of its
  // answers (a byte without a newline is not progress).
  absl::Time last_activity = absl::Now();

  std::size_t unsent() const { return output.size() - output_sent; }
  // Backpressure: stop reading and answering until the client reads.
  bool output_full() const { return unsent() >= kMaxUnsentBytes; }
  bool has_complete_line() const { return input.find('\n') != std::string::npos; }
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_LINE_SERVER_CONNECTION_H_
