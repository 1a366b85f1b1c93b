// The README's shell examples run as written: each ```sh block of "Your own
// CSV" and "Serving" is run by bash, word for word, with `rffstream` on the
// PATH, in a directory that holds the files the block names.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/app_process.h"

namespace rffstream::testing {
namespace {

// The first ```sh block after the README's heading `heading`.
std::string ShellBlockAfter(const std::string& heading) {
  const std::string readme = ReadText(std::string(RFFSTREAM_SOURCE_DIR) + "/README.md");
  const std::size_t section = readme.find("\n" + heading + "\n");
  REQUIRE(section != std::string::npos);
  const std::string opening = "```sh\n";
  const std::size_t start = readme.find(opening, section);
  REQUIRE(start != std::string::npos);
  const std::size_t end = readme.find("```\n", start + opening.size());
  REQUIRE(end != std::string::npos);
  return readme.substr(start + opening.size(), end - start - opening.size());
}

// Runs `script` with bash in `dir`, the app's directory first on the PATH
// (stopped after 10 minutes: a guard against a hang, long enough for the
// sanitizers' build).
RunResult RunShell(const TempDir& dir, const std::string& script) {
  std::ofstream(dir.File("example.sh")) << "set -e -o pipefail\n" << script;
  const std::string app_dir = std::filesystem::path(RFFSTREAM_APP_PATH).parent_path().string();
  const std::string command = "cd " + dir.path().string() + " && PATH=" + app_dir +
                              ":$PATH timeout 600 bash example.sh > out 2> err";
  const int status = std::system(command.c_str());
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = ReadText(dir.File("out"));
  result.err = ReadText(dir.File("err"));
  return result;
}

// House prices with an id, a text column and ages that are sometimes missing.
std::string HouseCsv(int lines) {
  const char* cities[] = {"paris", "lyon", "marseille"};
  std::string csv = "id,sqft,rooms,city,age,price\n";
  for (int i = 0; i < lines; ++i) {
    const double sqft = 60 + 40 * std::sin(0.37 * i) + 30 * std::cos(0.11 * i);
    const int rooms = 1 + i % 5;
    const std::string age = i % 17 == 0 ? "NA" : std::to_string(i % 60);
    const double price = 3 * sqft + 10 * rooms + (i % 3 == 0 ? 50 : 0);
    csv += std::to_string(i) + "," + std::to_string(sqft) + "," + std::to_string(rooms) + "," +
           cities[i % 3] + "," + age + "," + std::to_string(price) + "\n";
  }
  return csv;
}

TEST_CASE("The README's first run on your own CSV runs as written", "[readme][app]") {
  TempDir dir;
  std::ofstream(dir.File("house.csv")) << HouseCsv(400);
  std::ofstream(dir.File("data.csv")) << "a,b,y\n" << SmoothCsv(400);
  REQUIRE(std::system(("gzip " + dir.File("data.csv")).c_str()) == 0);
  const RunResult run = RunShell(dir, ShellBlockAfter("## Your own CSV"));
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  for (const char* made : {"house.rff", "pred.txt", "model.rff"}) {
    CHECK(std::filesystem::exists(dir.File(made)));
  }
  CHECK(Lines(ReadText(dir.File("pred.txt"))).size() == 400);
  // The predict line: one answer for the one house without a price.
  REQUIRE_FALSE(Lines(run.out).empty());
  CHECK(std::isfinite(std::stod(Lines(run.out).front())));
}

TEST_CASE("The README's serving example runs as written", "[readme][app][serve]") {
  TempDir dir;
  const RunResult run = RunShell(dir, ShellBlockAfter("## Serving") + "kill %1\nwait\n");
  INFO(run.err);
  // Killed by the script, the server exits 128 + SIGTERM; the script's own
  // status is wait's.
  const std::vector<std::string> answers = Lines(run.out);
  REQUIRE(answers.size() == 2);
  CHECK(answers[0] == "0");  // the first line is answered before anything was learned
  CHECK(std::stod(answers[1]) == Approx(1.5));
  CHECK(std::filesystem::exists(dir.File("model.rff")));
}

}  // namespace
}  // namespace rffstream::testing
