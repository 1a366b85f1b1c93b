// serve's session without sockets: the lines of one read in, one answer line
// each out, in order; control lines; the warm-up window answered at arrival;
// the output budget; the checkpoint at the stop.
#include "server/serve_session.h"

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "catch2/catch.hpp"
#include "tests/temp_dir.h"

namespace rffstream::app {
namespace {

std::vector<std::string> Split(const std::string& output) {
  std::vector<std::string> lines;
  std::size_t at = 0;
  for (std::size_t end; (end = output.find('\n', at)) != std::string::npos; at = end + 1) {
    lines.push_back(output.substr(at, end - at));
  }
  return lines;
}

StreamOptions ServeOptions() {
  StreamOptions options;
  options.model.features = 32;
  options.model.gamma = 0.5;
  options.model.ridge = 0.01;
  options.model.standardize = 4;
  options.model.given.Add("standardize");
  options.server.fields = 3;
  return options;
}

TEST_CASE("One answer line per request line, in order, control lines too", "[serve_session]") {
  std::FILE* log = std::tmpfile();
  ServeSession<double> session(ServeOptions(), log);
  const std::vector<std::string_view> lines = {"!ping",     "0.1,0.2,1", "0.2,0.1,2", "x,1,2",
                                                "0.3,0.3,3", "0.4,0.2,4", "0.5,0.1",   "0.5,0.1,5",
                                                "!stats",    "!frobnicate"};
  std::string output;
  REQUIRE(session.HandleLines(lines, output, 1 << 20) == lines.size());
  const std::vector<std::string> answers = Split(output);
  INFO(output);
  REQUIRE(answers.size() == lines.size());
  CHECK(answers[0] == "pong");
  // The warm-up window's lines are answered at arrival by the provisional
  // model: the mean of the targets so far (0 before any).
  CHECK(answers[1] == "0");
  CHECK(answers[2] == "1");
  CHECK(answers[3] ==
        "error: column 0: 'x' is not a number (a text column? declare it categorical)");
  CHECK(answers[4] == "1.5");
  CHECK(answers[5] == "2");
  CHECK(answers[6] == "error: expected 3 fields, got 2");  // --fields=3
  CHECK(answers[7].find_first_not_of("-0123456789.e") == std::string::npos);  // the model's
  CHECK(answers[8].rfind("samples 5 mse ", 0) == 0);
  CHECK(answers[9] == "error: unknown command '!frobnicate' (commands: !ping, !stats, !save)");
  std::fclose(log);
}

TEST_CASE("Answers stop at the output budget, the rest wait for the next call",
          "[serve_session]") {
  std::FILE* log = std::tmpfile();
  ServeSession<double> session(ServeOptions(), log);
  const std::vector<std::string_view> lines(10, "!ping");
  std::string output;
  const std::size_t answered = session.HandleLines(lines, output, 12);
  CHECK(answered < lines.size());
  CHECK(answered >= 1);
  CHECK(Split(output).size() == answered);
  std::fclose(log);
}

TEST_CASE("At the stop, a window still filling builds the model, which is saved",
          "[serve_session]") {
  testing::TempDir dir;
  StreamOptions options = ServeOptions();
  options.checkpoint.save = dir.File("served.rff");
  std::FILE* log = std::tmpfile();
  ServeSession<double> session(options, log);
  const std::vector<std::string_view> lines = {"0.1,0.2,1", "0.2,0.1,2"};
  std::string output;
  REQUIRE(session.HandleLines(lines, output, 1 << 20) == 2);
  REQUIRE(session.Stop().ok());
  absl::StatusOr<BasicCheckpoint<double>> saved = LoadCheckpoint<double>(dir.File("served.rff"));
  REQUIRE(saved.ok());
  CHECK(saved->learner.samples_learned() == 2);
  std::fclose(log);
}

}  // namespace
}  // namespace rffstream::app
