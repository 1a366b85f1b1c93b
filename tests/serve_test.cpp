// `rffstream serve` as clients see it: the built binary started as a child
// process, real sockets on 127.0.0.1 (ports chosen by the OS) and a Unix path.
// Every test stops its server and removes its files; client sockets time out.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "tests/child_process.h"
#include "tests/temp_dir.h"

namespace {

using rffstream::testing::TempDir;

class ServerProcess {
 public:
  // Starts `rffstream serve` with `arguments` plus a port file, and waits
  // until it listens.
  ServerProcess(const TempDir& dir, std::vector<std::string> arguments, bool unix_socket = false)
      : port_file_(dir.File("port")), log_(dir.File("server.log")) {
    std::vector<std::string> argv = {RFFSTREAM_APP_PATH, "serve", "--port_file=" + port_file_};
    if (!unix_socket) argv.push_back("--listen=127.0.0.1:0");
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    pid_ = rffstream::testing::Spawn(std::move(argv), log_);
    REQUIRE(pid_ > 0);
    for (int attempt = 0; attempt < 500 && port_ < 0; ++attempt) {
      std::ifstream file(port_file_);
      if (!(file >> port_)) port_ = -1;
      if (port_ < 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    REQUIRE(port_ >= 0);
  }

  ~ServerProcess() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }

  int port() const { return port_; }
  std::string Log() const { return rffstream::testing::ReadText(log_); }

  // Sends SIGTERM and returns the exit code (-1 if it did not exit in 10 s).
  int Terminate() {
    ::kill(pid_, SIGTERM);
    return rffstream::testing::WaitForExit(pid_, std::chrono::seconds(10));
  }

 private:
  std::string port_file_;
  std::string log_;
  pid_t pid_ = -1;
  int port_ = -1;
};

class Client {
 public:
  explicit Client(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
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
    timeval timeout{30, 0};  // generous: sanitizer builds are several times slower
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  }

  int fd_ = -1;
  std::string buffer_;
};

bool IsNumber(const std::string& text) {
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size();
}

std::string DataLine(int client, int t) {
  const double a = std::sin(0.37 * t + client), b = std::cos(0.11 * t * (client % 7 + 1));
  std::ostringstream line;
  line.precision(17);
  line << a << "," << b << "," << (a * b + std::sin(a));
  return line.str();
}

TEST_CASE("serve answers data and control lines, one response each", "[serve]") {
  TempDir dir;
  ServerProcess server(dir, {"--features=32"});
  Client client(server.port());
  client.Send("1,2,3\n4,5,6\n0.5,0.5,\nbad,line,1\n1,2\n!ping\n!stats\n!save\n!bogus\n");
  const std::vector<std::string> lines = client.ReadLines(9);
  REQUIRE(lines.size() == 9);
  CHECK(lines[0] == "0");  // a-priori: nothing learned yet
  CHECK(IsNumber(lines[1]));
  CHECK(IsNumber(lines[2]));  // unlabelled: prediction only
  CHECK(lines[3] == "error: field 1: 'bad' is not a number");
  CHECK(lines[4] == "error: expected 3 fields, got 2");
  CHECK(lines[5] == "pong");
  CHECK(lines[6].rfind("samples 2 mse ", 0) == 0);  // malformed lines were not learned
  CHECK(lines[7] == "error: no checkpoint file configured (start with --save=FILE)");
  CHECK(lines[8] == "error: unknown command '!bogus' (commands: !ping, !stats, !save)");
  CHECK(server.Terminate() == 0);
}

TEST_CASE("64 concurrent clients x 5000 lines: every line answered in order, one model",
          "[serve][concurrency]") {
  TempDir dir;
  ServerProcess server(dir, {"--features=64", "--ridge=0.01"});
  constexpr int kClients = 64, kLines = 5000, kPingEvery = 500;
  std::vector<int> failures(kClients, 0);
  std::vector<std::thread> threads;
  for (int c = 0; c < kClients; ++c) {
    threads.emplace_back([&, c] {
      Client client(server.port());
      std::string batch;
      for (int t = 0; t < kLines; ++t) {
        batch += DataLine(c, t) + "\n";
        if (t % kPingEvery == kPingEvery - 1) batch += "!ping\n";
      }
      client.Send(batch);  // pipelined: all lines in flight at once
      const size_t expected = kLines + kLines / kPingEvery;
      const std::vector<std::string> responses = client.ReadLines(expected);
      if (responses.size() != expected) ++failures[c];
      for (size_t i = 0; i < responses.size(); ++i) {
        // A ping follows every kPingEvery data lines: order is kept.
        const bool ping_position = i % (kPingEvery + 1) == kPingEvery;
        if (ping_position ? responses[i] != "pong" : !IsNumber(responses[i])) ++failures[c];
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int c = 0; c < kClients; ++c) CHECK(failures[c] == 0);
  Client query(server.port());
  query.Send("!stats\n0.25,-0.5,\n");
  const std::vector<std::string> answers = query.ReadLines(2);
  REQUIRE(answers.size() == 2);
  CHECK(answers[0].rfind("samples " + std::to_string(kClients * kLines) + " ", 0) == 0);
  // With β = 1 the model is the ridge solution on all lines, whatever their
  // interleaving: `rffstream learn` on the same lines in another order agrees.
  const std::string stream = dir.File("all.csv");
  {
    std::ofstream file(stream);
    for (int c = 0; c < kClients; ++c) {
      for (int t = 0; t < kLines; ++t) file << DataLine(c, t) << "\n";
    }
    file << "0.25,-0.5,\n";
  }
  const std::string predictions = dir.File("predictions");
  const std::string command = std::string(RFFSTREAM_APP_PATH) +
                              " learn --features=64 --ridge=0.01 --quiet --input=" + stream +
                              " --predictions=" + predictions;
  REQUIRE(std::system(command.c_str()) == 0);
  std::ifstream file(predictions);
  std::string line, last;
  while (std::getline(file, line)) last = line;
  CHECK(std::stod(answers[1]) == Approx(std::stod(last)).epsilon(1e-6));
  CHECK(server.Terminate() == 0);
}

TEST_CASE("serve closes a connection after an over-long line", "[serve][errors]") {
  TempDir dir;
  ServerProcess server(dir, {"--features=16", "--max_line_bytes=64"});
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
  ServerProcess server(dir, {"--features=16"});
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
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  Client fourth(server.port());  // a slot is free again
  fourth.Send("!ping\n");
  CHECK(fourth.ReadLine() == std::optional<std::string>("pong"));
  CHECK(server.Terminate() == 0);
}

TEST_CASE("SIGTERM answers the lines already received, saves, exits 0", "[serve][shutdown]") {
  TempDir dir;
  const std::string checkpoint = dir.File("model.rff");
  ServerProcess server(dir, {"--features=32", "--save=" + checkpoint});
  Client client(server.port());
  std::string lines;
  for (int t = 0; t < 3000; ++t) lines += DataLine(2, t) + "\n";
  client.Send(lines);
  REQUIRE(client.ReadLine().has_value());  // the server is working on them
  CHECK(server.Terminate() == 0);
  const std::vector<std::string> rest = client.ReadLines(3000);
  CHECK(rest.size() == 2999);
  CHECK_FALSE(client.ReadLine().has_value());
  CHECK(server.Log().find("saved " + checkpoint) != std::string::npos);
  // The checkpoint holds every learned line.
  const std::string command = std::string(RFFSTREAM_APP_PATH) + " export --load=" + checkpoint +
                              " > " + dir.File("model.json");
  REQUIRE(std::system(command.c_str()) == 0);
  std::ifstream json(dir.File("model.json"));
  std::stringstream text;
  text << json.rdbuf();
  CHECK(text.str().find("\"samples_learned\": 3000") != std::string::npos);
}

TEST_CASE("serve listens on a Unix socket and removes it on exit", "[serve][unix]") {
  TempDir dir;
  const std::string path = dir.File("rff.sock");
  ServerProcess server(dir, {"--features=16", "--listen=unix:" + path}, /*unix_socket=*/true);
  {
    Client client(path);
    client.Send("!ping\n1,2,3\n");
    CHECK(client.ReadLine() == std::optional<std::string>("pong"));
    CHECK(client.ReadLine() == std::optional<std::string>("0"));
  }
  CHECK(server.Terminate() == 0);
  CHECK_FALSE(std::ifstream(path).good());
}

TEST_CASE("serve closes idle connections when asked to", "[serve][errors]") {
  TempDir dir;
  ServerProcess server(dir, {"--features=16", "--idle_timeout=0.3"});
  Client client(server.port());
  client.Send("!ping\n");
  CHECK(client.ReadLine() == std::optional<std::string>("pong"));
  CHECK(client.ReadLine() == std::optional<std::string>("error: idle timeout"));
  CHECK_FALSE(client.ReadLine().has_value());
  CHECK(server.Terminate() == 0);
}

TEST_CASE("serve rejects a bad listen address", "[serve][errors]") {
  const std::string command = std::string(RFFSTREAM_APP_PATH) +
                              " serve --listen=localhost:80 2> /dev/null";
  const int status = std::system(command.c_str());
  CHECK(WEXITSTATUS(status) == 2);
}

}  // namespace
