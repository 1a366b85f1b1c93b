// `rffstream serve` as clients see it: the built binary started as a child
// process, real sockets on 127.0.0.1 (ports chosen by the OS) and a Unix path:
// the protocol, many clients at once, and shutdown. Every test stops its
// server and removes its files; client sockets time out.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/sanitized.h"
#include "tests/serve_process.h"

namespace {

using namespace rffstream::testing;

TEST_CASE("serve answers data and control lines, one response each", "[serve]") {
  TempDir dir;
  ServerProcess server(dir, {"--features=32", kNoWarmUp[0], kNoWarmUp[1], kNoWarmUp[2]});
  Client client(server.port());
  client.Send("1,2,3\n4,5,6\n0.5,0.5,\nbad,line,1\n1,2\n!ping\n!stats\n!save\n!bogus\n");
  const std::vector<std::string> lines = client.ReadLines(9);
  REQUIRE(lines.size() == 9);
  // A-priori: nothing learned yet (the first two lines are one exact block,
  // equal to one-at-a-time learning to rounding).
  REQUIRE(IsNumber(lines[0]));
  CHECK(std::abs(std::stod(lines[0])) < 1e-12);
  CHECK(IsNumber(lines[1]));
  CHECK(IsNumber(lines[2]));  // unlabelled: prediction only
  CHECK(lines[3] == "error: column 0: 'bad' is not a number (a text column? declare it categorical)");
  CHECK(lines[4] == "error: expected 3 fields, got 2");
  CHECK(lines[5] == "pong");
  CHECK(lines[6].rfind("samples 2 mse ", 0) == 0);  // malformed lines were not learned
  CHECK(lines[7] == "error: no checkpoint file configured (start with --save=FILE)");
  CHECK(lines[8] == "error: unknown command '!bogus' (commands: !ping, !stats, !save)");
  CHECK(server.Terminate() == 0);
}

TEST_CASE("64 concurrent clients x 5000 lines (1000 under the sanitizers): every line answered "
          "in order, one model",
          "[serve][concurrency]") {
  TempDir dir;
  // float64: the interleaving must not change the model past its last digits.
  ServerProcess server(dir, {"--precision=float64", "--features=64", "--ridge=0.01", "--gamma=0.25",
                             "--standardize=0"});
  constexpr int kClients = 64, kPingEvery = 500;
  constexpr int kLines = rffstream::testing::kSanitized ? 1000 : 5000;
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
                              " learn --precision=float64 --features=64 --ridge=0.01 --gamma=0.25 "
                              "--standardize=0 --quiet --input=" + stream +
                              " --predictions=" + predictions;
  REQUIRE(std::system(command.c_str()) == 0);
  std::ifstream file(predictions);
  std::string line, last;
  while (std::getline(file, line)) last = line;
  CHECK(std::stod(answers[1]) == Approx(std::stod(last)).epsilon(1e-6));
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

TEST_CASE("Stopped before the warm-up window is full, serve still saves those lines",
          "[serve][shutdown]") {
  TempDir dir;
  const std::string checkpoint = dir.File("model.rff");
  ServerProcess server(dir, {"--features=32", "--save=" + checkpoint});
  Client client(server.port());
  std::string lines;
  for (int t = 0; t < 10; ++t) lines += DataLine(1, t) + "\n";
  client.Send(lines + "!save\n");
  const std::vector<std::string> answers = client.ReadLines(11);
  REQUIRE(answers.size() == 11);
  CHECK(answers[9] == "warming up (10 of 256)");
  CHECK(answers[10] == "error: no model yet (the warm-up window holds 10 of 256 lines)");
  CHECK(server.Terminate() == 0);
  const std::string command = std::string(RFFSTREAM_APP_PATH) + " export --load=" + checkpoint +
                              " > " + dir.File("model.json");
  REQUIRE(std::system(command.c_str()) == 0);
  CHECK(rffstream::testing::ReadText(dir.File("model.json")).find("\"samples_learned\": 10") !=
        std::string::npos);
}

TEST_CASE("serve listens on a Unix socket and removes it on exit", "[serve][unix]") {
  TempDir dir;
  const std::string path = dir.File("rff.sock");
  ServerProcess server(dir, {"--features=16", kNoWarmUp[0], kNoWarmUp[1], kNoWarmUp[2], "--listen=unix:" + path}, /*unix_socket=*/true);
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

}  // namespace
