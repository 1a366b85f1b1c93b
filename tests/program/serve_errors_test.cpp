// `rffstream serve` against bad lines and bad clients: over-long and
// unfinished lines, too many connections, floods that are never read, no
// descriptors left, refused flags. The built binary on real sockets.
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "tests/sanitized.h"
#include "tests/serve_process.h"

namespace {

using namespace rffstream::testing;

TEST_CASE("serve closes a connection after an over-long line", "[serve][errors]") {
  TempDir dir;
  ServerProcess server(dir, {"--features=16", kNoWarmUp[0], kNoWarmUp[1], kNoWarmUp[2], "--max_line_bytes=64"});
  Client client(server.port());
  client.Send("1,2,3\n" + std::string(200, '7') + ",1,2\n1,2,3\n");
  CHECK(client.ReadLine() == std::optional<std::string>("0"));
  CHECK(client.ReadLine() == std::optional<std::string>("error: line longer than 64 bytes"));
  CHECK_FALSE(client.ReadLine().has_value());  // closed
  Client other(server.port());
  other.Send("!stats\n");
  CHECK(other.ReadLine()->rfind("samples 1 ", 0) == 0);
  CHECK(server.Terminate() == 0);
}

TEST_CASE("a client that disconnects mid-line costs nothing else", "[serve][errors]") {
  TempDir dir;
  ServerProcess server(dir, {"--features=16", kNoWarmUp[0], kNoWarmUp[1], kNoWarmUp[2]});
  {
    Client leaver(server.port());
    leaver.Send("1,2,3\n4,5");  // the second line never ends
    CHECK(leaver.ReadLine() == std::optional<std::string>("0"));
  }
  {
    Client rude(server.port());
    std::string many;
    for (int t = 0; t < 20000; ++t) many += DataLine(1, t) + "\n";
    rude.Send(many);  // and leaves without reading its responses
  }
  Client stayer(server.port());
  stayer.Send("!ping\n!stats\n");
  CHECK(stayer.ReadLine() == std::optional<std::string>("pong"));
  const std::optional<std::string> stats = stayer.ReadLine();
  REQUIRE(stats.has_value());
  CHECK(stats->rfind("samples ", 0) == 0);
  CHECK(server.Terminate() == 0);
}

TEST_CASE("A client that sends and leaves without reading has every line it delivered learned",
          "[serve][errors]") {
  TempDir dir;
  // Slow enough per line (D = 1024, float64) that the lines are still
  // queued at the server when the client resets the connection.
  ServerProcess server(dir, {"--features=1024", "--precision=float64", kNoWarmUp[0],
                             kNoWarmUp[1], kNoWarmUp[2]});
  const int lines = kSanitized ? 4000 : 20000;
  std::string many;
  for (int t = 0; t < lines; ++t) many += DataLine(1, t) + "\n";
  Client observer(server.port());
  {
    Client leaver(server.port());
    leaver.Send(many);
    // Every byte reached the server's side (none left in our send queue),
    // then a reset: closing with its answers unread.
    int unsent = 1;
    for (int wait = 0; wait < 6000 && unsent > 0; ++wait) {
      REQUIRE(::ioctl(leaver.fd(), SIOCOUTQ, &unsent) == 0);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    REQUIRE(unsent == 0);
    const linger reset{1, 0};
    ::setsockopt(leaver.fd(), SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
    observer.Send("!stats\n");
    const std::optional<std::string> before = observer.ReadLine();
    REQUIRE(before.has_value());
    INFO("when the client left: " << *before);
  }
  // Before, the failed send closed the connection and the lines still queued
  // were never read.
  const std::string all = "samples " + std::to_string(lines) + " ";
  std::string stats;
  for (int wait = 0; wait < 600 && stats.rfind(all, 0) != 0; ++wait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    observer.Send("!stats\n");
    stats = observer.ReadLine().value_or("");
  }
  CHECK(stats.rfind(all, 0) == 0);
  CHECK(server.Terminate() == 0);
}

TEST_CASE("serve refuses connections beyond the limit with an error line", "[serve][errors]") {
  TempDir dir;
  ServerProcess server(dir, {"--features=16", "--max_connections=2"});
  Client first(server.port()), second(server.port());
  first.Send("!ping\n");
  second.Send("!ping\n");
  CHECK(first.ReadLine() == std::optional<std::string>("pong"));
  CHECK(second.ReadLine() == std::optional<std::string>("pong"));
  Client third(server.port());
  CHECK(third.ReadLine() == std::optional<std::string>("error: too many connections (limit 2)"));
  CHECK_FALSE(third.ReadLine().has_value());
  first.Close();
  // A slot is free again once the server has seen the close: polled.
  std::optional<std::string> answer;
  for (int attempt = 0; attempt < 200 && answer != std::optional<std::string>("pong"); ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    Client fourth(server.port());
    fourth.Send("!ping\n");
    answer = fourth.ReadLine();
  }
  CHECK(answer == std::optional<std::string>("pong"));
  CHECK(server.Terminate() == 0);
}

TEST_CASE("serve rejects a bad listen address", "[serve][errors]") {
  const std::string command = std::string(RFFSTREAM_APP_PATH) +
                              " serve --listen=localhost:80 2> /dev/null";
  const int status = std::system(command.c_str());
  CHECK(WEXITSTATUS(status) == 2);
}

TEST_CASE("serve refuses the stream flags learn refuses, with the same message", "[serve][errors]") {
  TempDir dir;
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"--block=0", "--block must be >= 1"},
      {"--block=8 --variance", "--variance needs each prediction before the next update"},
      {"--classes=3 --variance", "--variance is for a single regression target"},
      {"--standardize=-1", "--standardize must be >= 0"},
      {"--save=" + dir.File("missing/m.rff"), "--save: "},
      {"--loss=hinge", "--loss=hinge is a classifier's loss"},
  };
  for (const auto& [flags, message] : refused) {
    INFO(flags);
    for (const char* command : {"serve", "learn"}) {
      const std::string err = dir.File("err");
      const int status = std::system((std::string(RFFSTREAM_APP_PATH) + " " + command + " " +
                                      flags + " < /dev/null 2> " + err)
                                         .c_str());
      CHECK(WEXITSTATUS(status) == 2);
      CHECK(rffstream::testing::ReadText(err).find(message) != std::string::npos);
    }
  }
  // serve's own flags: a port file it cannot write, a Unix socket where the
  // model is saved; learn does not read them.
  const std::string port_file = "--port_file=" + dir.File("missing/port"), err = dir.File("err");
  const std::string socket = dir.File("model");
  for (const auto& [command, flags, message] :
       {std::tuple<std::string, std::string, std::string>{"serve", port_file,
                                                          "cannot save --port_file "},
        {"learn", port_file, "--port_file: learn does not read this flag (serve does)"},
        {"serve", "--listen=unix:" + socket + " --save=" + socket,
         "--save=" + socket + " is the same file as --listen=" + socket}}) {
    INFO(flags);
    const int status = std::system((std::string(RFFSTREAM_APP_PATH) + " " + command + " " +
                                    flags + " < /dev/null 2> " + err).c_str());
    CHECK(WEXITSTATUS(status) == 2);
    CHECK(rffstream::testing::ReadText(err).find(message) != std::string::npos);
  }
}

TEST_CASE("A client that sends without reading cannot grow the server", "[serve][errors][hostile]") {
  TempDir dir;
  ServerProcess server(dir, {"--features=16"});
  Client client(server.port());
  client.Send("!ping\n");
  REQUIRE(client.ReadLine() == std::optional<std::string>("pong"));
  const long rss_before = server.StatusKilobytes("VmRSS");
  std::string flood;
  for (int i = 0; i < 4'000'000; ++i) flood += "!stats\n";  // 28 MB of requests
  const size_t sent = client.SendWithoutReading(flood, std::chrono::seconds(3));
  INFO("sent " << sent << " bytes without reading");
  // Backpressure: the server stopped reading this client after 1 MiB of
  // unsent answers, so the socket buffers filled and the client was blocked.
  CHECK(sent < flood.size());
  const long rss = server.StatusKilobytes("VmRSS");
  INFO("server RSS " << rss_before << " kB before, " << rss << " kB after");
  CHECK(rss > 0);
  CHECK(rss - rss_before < 32 * 1024);  // without backpressure: ~300 MB
  // Reading again, the client gets an answer to every line it sent, and the
  // server serves others meanwhile.
  Client other(server.port());
  other.Send("!ping\n");
  CHECK(other.ReadLine() == std::optional<std::string>("pong"));
  const size_t requests = sent / 7;
  size_t answered = 0;
  std::optional<std::string> line;
  while (answered < requests) {
    line = client.ReadLine();
    if (!line || line->rfind("samples 0 ", 0) != 0) break;
    ++answered;
  }
  INFO("the line after " << answered << " answers: " << line.value_or("(none: end or timeout)"));
  CHECK(answered == requests);
  CHECK(server.Terminate() == 0);
}

TEST_CASE("Out of descriptors, serve pauses accepting without spinning", "[serve][errors][hostile]") {
  TempDir dir;
  ServerProcess server(dir, {"--features=16", "--max_connections=1000"}, false, /*open_files=*/40);
  std::vector<std::unique_ptr<Client>> clients;
  for (int i = 0; i < 60; ++i) clients.push_back(std::make_unique<Client>(server.port()));
  const long ticks_before = server.CpuTicks();
  std::this_thread::sleep_for(std::chrono::seconds(3));
  const long ticks = server.CpuTicks() - ticks_before;
  INFO("CPU ticks over 3 s: " << ticks);
  CHECK(ticks < 30);  // 0.3 s of CPU at 100 ticks/s; a spinning loop takes ~300
  // A closed connection frees a descriptor: a waiting client is then served.
  for (int i = 0; i < 30; ++i) clients[i]->Close();
  clients.back()->Send("!ping\n");
  CHECK(clients.back()->ReadLine() == std::optional<std::string>("pong"));
  CHECK(server.Terminate() == 0);
  const std::string log = server.Log();
  INFO(log);
  CHECK(log.find("only 40 open files allowed (ulimit -n)") != std::string::npos);
  CHECK(log.find("cannot accept: Too many open files") != std::string::npos);
  // At most about one message a second, not one per failed accept.
  size_t messages = 0;
  for (size_t at = log.find("cannot accept"); at != std::string::npos;
       at = log.find("cannot accept", at + 1)) {
    ++messages;
  }
  CHECK(messages <= 6);
}

TEST_CASE("Error lines escape control bytes and invalid UTF-8", "[serve][errors][hostile]") {
  TempDir dir;
  // --fields: the first line decides the shape, so the text in column 0 of
  // the next lines is an error at once.
  ServerProcess server(dir, {"--features=16", "--fields=3"});
  Client client(server.port());
  client.Send("1,2,3\n\x1b[2J\xff,2,3\n\xc3\xa9t\xc3\xa9,2,3\n!\x07\n");
  const std::vector<std::string> lines = client.ReadLines(4);
  REQUIRE(lines.size() == 4);
  CHECK(lines[1] == "error: column 0: '\\x1B[2J\\xFF' is not a number (a text column? declare it categorical)");
  CHECK(lines[2] == "error: column 0: '\xc3\xa9t\xc3\xa9' is not a number (a text column? declare it categorical)");  // valid UTF-8 stays
  CHECK(lines[3] == "error: unknown command '!\\x07' (commands: !ping, !stats, !save)");
  CHECK(server.Terminate() == 0);
}

TEST_CASE("A number too large for the model is an error line and is not learned",
          "[serve][errors][nonfinite]") {
  TempDir dir;
  ServerProcess server(dir, {"--features=16", kNoWarmUp[0], kNoWarmUp[1], kNoWarmUp[2]});
  Client client(server.port());
  client.Send("1,2,3\n1.5e308,2,3\n1,2,1e300\n0.5,0.25,\n!stats\n");
  const std::vector<std::string> lines = client.ReadLines(5);
  REQUIRE(lines.size() == 5);
  const std::string refused =
      "error: a number is too large for the model (its features, prediction or update would "
      "not be finite)";
  CHECK(lines[1] == refused + ": its largest number is in column 0");
  CHECK(lines[2] == refused + ": its largest number is in column 2");
  CHECK(IsNumber(lines[3]));
  CHECK(lines[4].rfind("samples 1 mse ", 0) == 0);
  CHECK(server.Terminate() == 0);
}

TEST_CASE("A first line wider than --max_inputs is refused, the next one starts the model",
          "[serve][errors][hostile]") {
  TempDir dir;
  // One line at a time: the second line's prior is then exactly 0 however
  // the server's reads split the lines (a block's priors agree to rounding).
  ServerProcess server(dir, {"--features=16", kNoWarmUp[0], kNoWarmUp[1], kNoWarmUp[2],
                             "--max_inputs=100", "--block=1"});
  Client client(server.port());
  std::string wide;
  for (int i = 0; i < 256; ++i) wide += "1,";
  client.Send(wide + "2\n1,2,3\n4,5,6\n");
  const std::vector<std::string> lines = client.ReadLines(3);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "error: 257 columns: more inputs than --max_inputs=100 (raise --max_inputs to allow it)");
  CHECK(lines[1] == "0");
  CHECK(IsNumber(lines[2]));
  CHECK(server.Terminate() == 0);
}

}  // namespace
