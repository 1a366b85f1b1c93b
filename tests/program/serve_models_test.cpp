// `rffstream serve` with a model from a file: --follow swaps in each model a
// learner publishes, whole, and --load of a classifier answers classes
// without its flags. The built binary, real files and sockets.
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/serve_process.h"

namespace {

using namespace rffstream::testing;

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

TEST_CASE("serve --follow takes a model learned anew, whose targets' mean is its own",
          "[serve][follow]") {
  TempDir dir;
  const std::string model = dir.File("model.rff"), next = dir.File("next.rff");
  // Two runs of learn on different lines: their windows' means differ.
  const auto learn = [&](double level, const std::string& path) {
    std::string lines;
    for (int t = 0; t < 400; ++t) {
      const double x = std::sin(0.3 * t);
      lines += std::to_string(x) + "," + std::to_string(level + x) + "\n";
    }
    const std::string input = dir.File("lines.csv");
    std::ofstream(input) << lines;
    REQUIRE(std::system((std::string(RFFSTREAM_APP_PATH) + " learn --quiet --features=16 --input=" +
                         input + " --save=" + path).c_str()) == 0);
  };
  learn(100, model);
  learn(200, next);
  ServerProcess server(dir, {"--load=" + model, "--follow"});
  Client client(server.port());
  std::filesystem::rename(next, model);
  std::vector<std::string> stats;
  for (int attempt = 0; attempt < 200; ++attempt) {
    client.Send("0.5\n!stats\n");
    stats = client.ReadLines(2);
    if (stats.size() == 2 && stats[1].find(" reloads 1") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE(stats.size() == 2);
  CHECK(stats[1].find(" reloads 1") != std::string::npos);
  CHECK(std::abs(std::stod(stats[0]) - 200.5) < 0.2);
  CHECK(server.Terminate() == 0);
  CHECK(server.Log().find("reads its input differently") == std::string::npos);
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

}  // namespace
