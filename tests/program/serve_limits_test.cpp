// What one client, one file or one signal can take from `serve`: a socket
// path that is not a dead server's, answers nobody reads, unfinished lines,
// clients that trickle, a followed model path that turns into a device or a
// FIFO, SIGHUP. The built binary, real sockets, real files, real signals.
#include <sys/stat.h>
#include <sys/types.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tests/sanitized.h"
#include "tests/serve_process.h"

namespace {

using namespace rffstream::testing;

// serve expected to refuse at start: its exit code and standard error.
std::pair<int, std::string> ServeRefusal(const TempDir& dir, const std::string& arguments) {
  const std::string err = dir.File("refusal.err");
  const int status = std::system(("timeout 20 " + std::string(RFFSTREAM_APP_PATH) + " serve " +
                                  arguments + " < /dev/null 2> " + err).c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, ReadText(err)};
}

ino_t InodeOf(const std::string& path) {
  struct stat status{};
  return ::stat(path.c_str(), &status) == 0 ? status.st_ino : 0;
}

TEST_CASE("A Unix socket path is taken only from a dead server, never from a file or a live one",
          "[serve][unix][errors]") {
  TempDir dir;
  const std::string precious = dir.File("precious");
  std::ofstream(precious) << "precious\n";
  const auto [file_exit, file_err] = ServeRefusal(dir, "--listen=unix:" + precious);
  CHECK(file_exit == 1);
  CHECK(file_err.find("the path exists and is not a socket") != std::string::npos);
  CHECK(ReadText(precious) == "precious\n");
  // A live server keeps its path: a second one is refused, the first still answers.
  const std::string path = dir.File("rff.sock");
  ServerProcess first(dir, {"--features=16", "--listen=unix:" + path}, /*unix_socket=*/true);
  const auto [live_exit, live_err] = ServeRefusal(dir, "--listen=unix:" + path);
  CHECK(live_exit == 1);
  CHECK(live_err.find("another server is listening there") != std::string::npos);
  {
    Client client(path);
    client.Send("!ping\n");
    CHECK(client.ReadLine() == std::optional<std::string>("pong"));
  }
  // The socket of a server that died (no one accepts there) is replaced.
  first.Signal(SIGKILL);
  for (int attempt = 0; attempt < 100 && std::filesystem::exists(path); ++attempt) {
    const int probe = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un name{};
    name.sun_family = AF_UNIX;
    std::snprintf(name.sun_path, sizeof(name.sun_path), "%s", path.c_str());
    const bool refused = ::connect(probe, reinterpret_cast<sockaddr*>(&name), sizeof(name)) != 0;
    ::close(probe);
    if (refused) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE(std::filesystem::is_socket(path));  // left behind by the killed server
  TempDir second_dir;
  ServerProcess second(second_dir, {"--features=16", "--listen=unix:" + path}, true);
  Client client(path);
  client.Send("!ping\n");
  CHECK(client.ReadLine() == std::optional<std::string>("pong"));
  CHECK(second.Terminate() == 0);
  CHECK_FALSE(std::filesystem::exists(path));
}

TEST_CASE("SIGHUP saves the model and serve goes on answering", "[serve][signals]") {
  TempDir dir;
  const std::string model = dir.File("model.rff");
  ServerProcess server(dir, {"--features=16", kNoWarmUp[0], kNoWarmUp[1], kNoWarmUp[2],
                             "--save=" + model});
  Client client(server.port());
  std::string lines;
  for (int t = 0; t < 50; ++t) lines += DataLine(0, t) + "\n";
  client.Send(lines);
  REQUIRE(client.ReadLines(50).size() == 50);
  server.Signal(SIGHUP);
  for (int attempt = 0; attempt < 200 && !std::filesystem::exists(model); ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK(std::filesystem::exists(model));
  client.Send("!ping\n");
  CHECK(client.ReadLine() == std::optional<std::string>("pong"));
  CHECK(server.Log().find("SIGHUP: saved " + model + "; serving on") != std::string::npos);
  // !save on a model that has not changed since writes nothing again.
  const ino_t saved = InodeOf(model);
  client.Send("!save\n!save\n");
  CHECK(client.ReadLines(2) == std::vector<std::string>{"ok", "ok"});
  CHECK(InodeOf(model) == saved);
  client.Send(DataLine(0, 51) + "\n!save\n");
  CHECK(client.ReadLines(2).at(1) == "ok");
  CHECK(InodeOf(model) != saved);
  // Unchanged, but the file written is gone: "ok" means it is there again.
  std::filesystem::remove(model);
  client.Send("!save\n");
  CHECK(client.ReadLines(1) == std::vector<std::string>{"ok"});
  CHECK(std::filesystem::exists(model));
  CHECK(server.Terminate() == 0);
}

TEST_CASE("A client that asks for large answers and never reads them cannot grow the server",
          "[serve][errors][hostile]") {
  TempDir dir;
  ServerProcess server(dir, {"--classes=1024", "--features=16", kNoWarmUp[0], kNoWarmUp[1],
                             kNoWarmUp[2]});
  Client greedy(server.port());
  greedy.Send("0.5,3\n");
  REQUIRE(greedy.ReadLine().has_value());
  const long rss_before = server.StatusKilobytes("VmRSS");
  std::string flood;
  for (int i = 0; i < 400; ++i) flood += "!stats\n";
  greedy.SendWithoutReading(flood, std::chrono::seconds(2));
  // Others are served at once meanwhile.
  Client other(server.port());
  const auto start = std::chrono::steady_clock::now();
  other.Send("!ping\n");
  CHECK(other.ReadLine() == std::optional<std::string>("pong"));
  // Under the sanitizers one !stats of 1024 classes takes seconds to make.
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(kSanitized ? 20 : 2));
  const long rss = server.StatusKilobytes("VmRSS");
  INFO("server RSS " << rss_before << " kB before, " << rss << " kB after");
  CHECK(rss - rss_before < 64 * 1024);  // before: 1.1 GB
  CHECK(server.Terminate() == 0);  // and a signal still stops it
}

TEST_CASE("Unfinished lines of many clients together are bounded", "[serve][errors][hostile]") {
  TempDir dir;
  ServerProcess server(dir, {"--features=16"});
  const std::string partial(1'000'000, '1');  // under --max_line_bytes, never finished
  std::vector<std::unique_ptr<Client>> clients;
  for (int i = 0; i < 80; ++i) {
    clients.push_back(std::make_unique<Client>(server.port()));
    clients.back()->SendWithoutReading(partial, std::chrono::seconds(5));
  }
  // Until the server has read what the sockets hold (polled: its memory
  // stops growing, three polls in a row, so that a server the machine's load
  // holds back a moment is not taken for one that is done).
  long rss = 0;
  int steady = 0;
  for (int attempt = 0; attempt < 150 && steady < 3; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const long now = server.StatusKilobytes("VmRSS");
    steady = now > 32 * 1024 && now - rss < 1024 ? steady + 1 : 0;
    rss = now;
  }
  UNSCOPED_INFO("server RSS " << rss << " kB");
  int turned_away = 0;
  for (const auto& client : clients) {
    // Ends the line of those still connected (an error line each); the
    // others' sockets may be closed already.
    client->SendWithoutReading("\n", std::chrono::milliseconds(50));
  }
  for (const auto& client : clients) {
    const std::optional<std::string> line = client->ReadLine();
    if (line == std::optional<std::string>(
                    "error: the server holds too much unfinished input; try again later")) {
      ++turned_away;
    }
  }
  INFO(turned_away << " clients turned away");
  CHECK(turned_away > 0);
  CHECK(turned_away < 80);
  Client late(server.port());
  late.Send("!ping\n");
  CHECK(late.ReadLine() == std::optional<std::string>("pong"));
  CHECK(server.Terminate() == 0);
}

TEST_CASE("A client that trickles bytes and never ends a line is timed out", "[serve][errors]") {
  TempDir dir;
  ServerProcess server(dir, {"--features=16", "--idle_timeout=0.5"});
  Client trickle(server.port());
  const auto start = std::chrono::steady_clock::now();
  std::optional<std::string> answer;
  std::thread sender([&] {
    for (int i = 0; i < 30; ++i) {
      if (::send(trickle.fd(), "1", 1, MSG_NOSIGNAL) != 1) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  answer = trickle.ReadLine();
  sender.join();
  CHECK(answer == std::optional<std::string>("error: idle timeout"));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::milliseconds(2500));
  CHECK(server.Terminate() == 0);
}

TEST_CASE("serve --follow refuses a path that becomes a device or a FIFO, and stays responsive",
          "[serve][follow][hostile]") {
  TempDir dir;
  const std::string model = dir.File("model.rff");
  std::string lines;
  for (int t = 0; t < 50; ++t) lines += std::to_string(0.01 * t) + ",1\n";
  std::ofstream(dir.File("lines.csv")) << lines;
  REQUIRE(std::system((std::string(RFFSTREAM_APP_PATH) + " learn --quiet --features=16 " +
                       "--standardize=0 --gamma=0.5 --ridge=0.01 --input=" + dir.File("lines.csv") +
                       " --save=" + model).c_str()) == 0);
  ServerProcess server(dir, {"--load=" + model, "--follow"});
  Client client(server.port());
  const long rss_before = server.StatusKilobytes("VmRSS");
  const auto refusals = [&](int wanted) {
    std::string stats;
    for (int attempt = 0; attempt < 200; ++attempt) {
      client.Send("!stats\n");
      stats = client.ReadLine().value_or("");
      if (stats.find(" refused " + std::to_string(wanted)) != std::string::npos) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return stats;
  };
  std::filesystem::remove(model);
  std::filesystem::create_symlink("/dev/zero", model);
  CHECK(refusals(1).find(" reloads 0 refused 1") != std::string::npos);
  std::filesystem::remove(model);
  REQUIRE(::mkfifo(model.c_str(), 0600) == 0);
  CHECK(refusals(2).find(" reloads 0 refused 2") != std::string::npos);
  client.Send("0.2\n");
  const std::optional<std::string> answer = client.ReadLine();
  REQUIRE(answer.has_value());
  CHECK(std::abs(std::stod(*answer) - 1) < 0.2);  // the model in use still answers
  CHECK(server.StatusKilobytes("VmRSS") - rss_before < 32 * 1024);
  CHECK(server.Terminate() == 0);
  CHECK(server.Log().find("is not a regular file") != std::string::npos);
}

TEST_CASE("One client's first line does not fix the input's shape for everyone",
          "[serve][errors][hostile]") {
  TempDir dir;
  ServerProcess server(dir, {"--features=16", "--standardize=20"});
  Client hostile(server.port()), honest(server.port());
  std::string wide;
  for (int i = 0; i < 5000; ++i) wide += "1,";
  hostile.Send(wide + "1\n");
  CHECK(hostile.ReadLine() == std::optional<std::string>("warming up (1 of 20)"));
  // The warm-up window's most common shape wins: three fields.
  std::string lines;
  for (int t = 0; t < 40; ++t) lines += DataLine(0, t) + "\n";
  honest.Send(lines + "not,a,number\n");
  const std::vector<std::string> answers = honest.ReadLines(41);
  REQUIRE(answers.size() == 41);
  CHECK(answers[0] == "warming up (2 of 20)");
  CHECK(IsNumber(answers[30]));  // answered by the model the window built
  CHECK(answers[40] == "error: column 0: 'not' is not a number (a text column? declare it categorical)");
  hostile.Send(wide + "1\n");
  const std::optional<std::string> refused = hostile.ReadLine();
  REQUIRE(refused.has_value());
  CHECK(*refused == "error: expected 3 fields, got 5001");
  CHECK(server.Terminate() == 0);
  CHECK(server.Log().find("input shape: 3 fields a line, as 19 of the 20 lines") != std::string::npos);
}

TEST_CASE("The warm-up window's lines vote on the text columns too", "[serve][categorical]") {
  TempDir dir;
  ServerProcess server(dir, {"--features=16", "--standardize=20"});
  Client first(server.port()), others(server.port());
  // A first line whose city is a number (or missing) does not make the
  // city column numeric for everyone: most of the window's lines hold text.
  first.Send("1.0,2,3.0\n1.5,,3.5\n");
  CHECK(first.ReadLines(2).size() == 2);
  const char* cities[] = {"paris", "lyon", "nice"};
  std::string lines;
  for (int t = 0; t < 60; ++t) {
    lines += std::to_string(0.1 * t) + "," + cities[t % 3] + "," + std::to_string(0.2 * t + t % 3) +
             "\n";
  }
  others.Send(lines + "!stats\n");
  const std::vector<std::string> answers = others.ReadLines(61);
  REQUIRE(answers.size() == 61);
  // No city is an error: the window's lines are answered "warming up", the
  // rest by the model the window built (18 lines of this client were the
  // window's, whose answers count in no metric).
  for (int t = 18; t < 60; ++t) CHECK(IsNumber(answers[t]));
  CHECK(answers[60].rfind("samples 42 ", 0) == 0);
  CHECK(server.Terminate() == 0);
}

}  // namespace
