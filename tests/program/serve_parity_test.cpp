// `rffstream serve` answers what `rffstream learn` writes for the same lines
// and flags: the same text one line at a time, the same numbers to rounding
// in blocks. The built binary on real sockets.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/serve_process.h"

namespace {

using namespace rffstream::testing;

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
