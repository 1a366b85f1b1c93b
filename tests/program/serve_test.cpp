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
#include <algorithm>
#include <filesystem>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
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
      {"--port_file=" + dir.File("missing/port"), "cannot save --port_file "},
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
  CHECK(lines[1] == refused);
  CHECK(lines[2] == refused);
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

TEST_CASE("serve --follow answers with each model a learner publishes, never half of one",
          "[serve][follow]") {
  TempDir dir;
  const std::string model = dir.File("model.rff"), flags = " --quiet --features=32" +
                                                        std::string(" --standardize=0 --gamma=0.5 --ridge=0.01");
  // Two models that answer the query differently: targets 1 and 5.
  std::string ones, fives;
  for (int t = 0; t < 50; ++t) {
    ones += std::to_string(0.01 * t) + ",1\n";
    fives += std::to_string(0.01 * t) + ",5\n";
  }
  const auto learn = [&](const std::string& lines, const std::string& path) {
    const std::string input = dir.File("lines.csv");
    std::ofstream(input) << lines;
    REQUIRE(std::system((std::string(RFFSTREAM_APP_PATH) + " learn" + flags + " --input=" + input +
                         " --save=" + path).c_str()) == 0);
  };
  learn(ones, model);
  learn(fives, dir.File("fives.rff"));
  ServerProcess server(dir, {"--load=" + model, "--follow"});
  Client client(server.port());
  client.Send("0.2\n");
  const std::string first = client.ReadLines(1).at(0);
  REQUIRE(IsNumber(first));
  CHECK(std::abs(std::stod(first) - 1) < 0.2);
  // Under load: a client streams the query while the model is published
  // (renamed over, as --save does) three times; every line is answered, by
  // one whole model or the other.
  std::atomic<bool> publishing_done = false;
  std::thread publisher([&] {
    for (int round = 0; round < 3; ++round) {
      std::this_thread::sleep_for(std::chrono::milliseconds(150));
      learn(round % 2 == 0 ? fives : ones, dir.File("next.rff"));
      std::filesystem::rename(dir.File("next.rff"), model);
    }
    publishing_done = true;
  });
  int answered = 0, from_fives = 0;
  std::vector<double> answers;
  while (!publishing_done || answered < 200) {
    client.Send("0.2\n0.2\n0.2\n0.2\n");
    for (const std::string& line : client.ReadLines(4)) {
      REQUIRE(IsNumber(line));
      const double value = std::stod(line);
      const bool one = std::abs(value - 1) < 0.2, five = std::abs(value - 5) < 0.2;
      CHECK((one || five));
      from_fives += five ? 1 : 0;
      ++answered;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  publisher.join();
  CHECK(from_fives > 0);
  // The last published model (the fives) answers from now on: once the
  // server has seen it (polled between requests; slow under sanitizers).
  std::vector<std::string> last;
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    client.Send("0.2\n!stats\n");
    last = client.ReadLines(2);
    if (last.size() == 2 && last[1].find(" reloads 3") != std::string::npos) break;
  }
  CHECK(std::abs(std::stod(last.at(0)) - 5) < 0.2);
  CHECK(last.at(1).find("model_samples 50 model_loaded ") != std::string::npos);
  CHECK(last.at(1).find(" reloads 3") != std::string::npos);
  // A model that reads its input otherwise (two inputs) waits for a restart.
  std::string wider;
  for (int t = 0; t < 50; ++t) wider += std::to_string(0.01 * t) + ",0.5,9\n";
  learn(wider, dir.File("next.rff"));
  std::filesystem::rename(dir.File("next.rff"), model);
  // Polled until the server has seen it and refused it (not a reload).
  std::vector<std::string> kept;
  for (int attempt = 0; attempt < 200; ++attempt) {
    client.Send("0.2\n!stats\n");
    kept = client.ReadLines(2);
    if (kept.size() == 2 && kept[1].find(" refused 1") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK(std::abs(std::stod(kept.at(0)) - 5) < 0.2);
  CHECK(kept.at(1).find(" reloads 3 refused 1") != std::string::npos);
  CHECK(server.Terminate() == 0);
  CHECK(server.Log().find("the new model reads its input differently") != std::string::npos);
  // --follow needs a model to follow.
  const int status = std::system((std::string(RFFSTREAM_APP_PATH) + " serve --follow 2> /dev/null").c_str());
  CHECK(WEXITSTATUS(status) == 2);
}

TEST_CASE("serve --load of a classifier answers classes without its flags", "[serve][checkpoint]") {
  TempDir dir;
  const std::string model = dir.File("classes.rff");
  {
    ServerProcess learner(dir, {"--features=32", "--classes=3", "--save=" + model});
    Client client(learner.port());
    std::string lines;
    for (int t = 0; t < 300; ++t) {
      const int label = t % 3;
      lines += std::to_string(label + 0.1 * std::sin(t)) + "," + std::to_string(std::cos(t)) + "," +
               std::to_string(label) + "\n";
    }
    client.Send(lines + "!stats\n");
    const std::vector<std::string> answers = client.ReadLines(301);
    REQUIRE(answers.size() == 301);
    CHECK(answers[299].size() == 1);  // a class, 0 to 2
    // The 256 lines of the window were answered "warming up" (the input's
    // shape came from them): only the 44 answered with a class are scored.
    CHECK(answers[300].rfind("samples 44 accuracy ", 0) == 0);
    CHECK(learner.Terminate() == 0);
  }
  TempDir second;  // a port file of its own
  ServerProcess server(second, {"--load=" + model});
  Client client(server.port());
  client.Send("2.05,0.3,\n0.02,0.1,0\n1,1,7\n!stats\n");
  const std::vector<std::string> lines = client.ReadLines(4);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] == "2");
  CHECK(lines[1] == "0");
  CHECK(lines[2] == "error: class label 7 is not an integer in [0, 3) (--classes)");
  CHECK(lines[3].rfind("samples 45 accuracy ", 0) == 0);
  CHECK(server.Terminate() == 0);
  // A contradicting flag is refused by name.
  TempDir other;
  std::vector<std::string> argv = {RFFSTREAM_APP_PATH, "serve", "--load=" + model, "--classes=4",
                                   "--listen=127.0.0.1:0"};
  pid_t pid = rffstream::testing::Spawn(argv, other.File("log"));
  CHECK(rffstream::testing::WaitForExit(pid, std::chrono::seconds(10)) == 2);
  CHECK(rffstream::testing::ReadText(other.File("log")).find("--classes=4 (the model has 3 classes)") !=
        std::string::npos);
}

// The same numbers to `tolerance` relative: comma-separated answers of learn and serve.
bool SameNumbers(const std::string& a, const std::string& b, double tolerance) {
  std::stringstream first(a), second(b);
  std::string x, y;
  while (std::getline(first, x, ',')) {
    if (!std::getline(second, y, ',') || !IsNumber(x) || !IsNumber(y)) return false;
    const double u = std::stod(x), v = std::stod(y);
    if (std::abs(u - v) > tolerance * (std::abs(u) + std::abs(v) + 1e-3)) return false;
  }
  return !std::getline(second, y, ',');
}

// `learn --predictions=-` on a file, and the answers of `serve` with the same
// flags to the same lines on one connection: after the warm-up window they
// are the same text, line for line, with --block=1 (and with --variance or
// --loss=hinge, which learn a line at a time); by default serve learns the
// labelled lines of each read as one exact block, and they agree to
// rounding.
void CheckServeAnswersAsLearnWrites(const std::vector<std::string>& flags, const std::string& lines,
                                    int warm_up) {
  const auto has = [&flags](const char* flag) {
    return std::find(flags.begin(), flags.end(), flag) != flags.end();
  };
  const bool one_at_a_time = has("--block=1") || has("--variance") || has("--loss=hinge");
  const bool single = has("--precision=float32");
  TempDir dir;
  const std::string input = dir.File("lines.csv"), predictions = dir.File("learn.txt");
  std::ofstream(input) << lines;
  std::string command = std::string(RFFSTREAM_APP_PATH) + " learn --quiet --input=" + input +
                        " --predictions=" + predictions;
  for (const std::string& flag : flags) command += " " + flag;
  REQUIRE(std::system(command.c_str()) == 0);
  std::vector<std::string> learned;
  {
    std::ifstream file(predictions);
    for (std::string line; std::getline(file, line);) learned.push_back(line);
  }
  ServerProcess server(dir, flags);
  Client client(server.port());
  client.Send(lines);
  const std::vector<std::string> answers = client.ReadLines(learned.size());
  REQUIRE(answers.size() == learned.size());
  for (size_t i = 0; i < answers.size(); ++i) {
    INFO("line " << i + 1);
    if (static_cast<int>(i) < warm_up) {
      CHECK(answers[i] ==
            "warming up (" + std::to_string(i + 1) + " of " + std::to_string(warm_up) + ")");
    } else if (one_at_a_time) {
      CHECK(answers[i] == learned[i]);
    } else {
      INFO(answers[i] << " vs " << learned[i]);
      CHECK(SameNumbers(answers[i], learned[i], single ? 1e-4 : 1e-9));
    }
  }
  CHECK(server.Terminate() == 0);
}

std::string GeneratedLines(const std::string& arguments) {
  TempDir dir;
  const std::string path = dir.File("series.csv");
  REQUIRE(std::system((std::string(RFFSTREAM_APP_PATH) + " generate " + arguments + " > " + path).c_str()) == 0);
  return rffstream::testing::ReadText(path);
}

TEST_CASE("serve answers what learn writes: the default warm-up, standardization and tuning",
          "[serve][parity]") {
  const std::string series = GeneratedLines("--samples=400 --embedding=4");
  CheckServeAnswersAsLearnWrites({"--features=32"}, series, 256);
  CheckServeAnswersAsLearnWrites({"--features=32", "--block=1"}, series, 256);
  // Split across two threads (D = 300: two parts of the pass).
  CheckServeAnswersAsLearnWrites({"--features=300", "--threads=2", "--block=1"}, series, 256);
  CheckServeAnswersAsLearnWrites({"--features=300", "--threads=2"}, series, 256);
  CheckServeAnswersAsLearnWrites({"--features=32", "--standardize=50", "--gamma=auto", "--ridge=0.01",
                                  "--precision=float32"},
                                 GeneratedLines("--samples=200 --embedding=3"), 50);
  CheckServeAnswersAsLearnWrites(
      {"--features=32", "--standardize=50", "--gamma=auto", "--ridge=auto", "--block=1"},
      GeneratedLines("--samples=200 --embedding=3"), 50);
}

TEST_CASE("serve answers what learn writes: classes, targets, variance", "[serve][parity]") {
  std::string classes;
  for (int t = 0; t < 400; ++t) {
    const double x = std::sin(0.37 * t), y = std::cos(0.91 * t);
    classes += std::to_string(x) + "," + std::to_string(y) + "," +
               std::to_string(x > 0 ? (y > 0 ? 0 : 1) : 2) + "\n";
  }
  CheckServeAnswersAsLearnWrites({"--features=32", "--classes=3", "--block=1"}, classes, 256);
  CheckServeAnswersAsLearnWrites({"--features=32", "--classes=3", "--loss=hinge"}, classes, 256);
  CheckServeAnswersAsLearnWrites({"--features=32", "--classes=3", "--loss=hinge",
                                  "--precision=float32"},
                                 classes, 256);
  const std::string series = GeneratedLines("--samples=300 --embedding=4");
  CheckServeAnswersAsLearnWrites({"--features=32", "--targets=0,4", "--standardize=40"}, series, 40);
  CheckServeAnswersAsLearnWrites({"--features=32", "--targets=0,4", "--standardize=40", "--block=1"},
                                 series, 40);
  CheckServeAnswersAsLearnWrites({"--features=32", "--variance", "--standardize=40"}, series, 40);
  // Without a warm-up, answers from the first line.
  CheckServeAnswersAsLearnWrites(
      {"--features=32", "--standardize=0", "--gamma=0.5", "--ridge=0.01", "--kernel=matern32"},
      series, 0);
}

}  // namespace
