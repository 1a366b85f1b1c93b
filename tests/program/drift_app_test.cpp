// End-to-end tests of --forget=auto (the default): a stream whose target
// changes is tracked, a stationary one is learned exactly as with β = 1;
// `serve` tracks it as `learn` does and names the change in `!stats`.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "tests/app_process.h"
#include "tests/serve_process.h"
#include "tests/temp_dir.h"

namespace {

using namespace rffstream::testing;

double MeanSquaredError(const std::vector<std::string>& answers, const std::string& csv, int from,
                        int to) {
  const std::vector<std::string> lines = Lines(csv);
  double sum = 0;
  for (int t = from; t < to; ++t) {
    const double target = std::stod(lines[t].substr(lines[t].rfind(',') + 1));
    sum += (std::stod(answers[t]) - target) * (std::stod(answers[t]) - target);
  }
  return sum / (to - from);
}

TEST_CASE("A change of the stream is detected, named and tracked", "[app][drift]") {
  const std::string csv = SwitchingCsv(6000, 3000);
  const std::string flags = "--predictions=- --features=32 --gamma=1 --ridge=0.01";
  const RunResult tracked = RunApp("learn " + flags, csv);
  const RunResult fixed = RunApp("learn --forget=1 " + flags, csv);
  REQUIRE(tracked.exit_code == 0);
  REQUIRE(fixed.exit_code == 0);
  const std::string named = "drift (--forget=auto): 1 change detected: line 30";
  CHECK(tracked.err.find(named) != std::string::npos);
  CHECK(fixed.err.find("drift") == std::string::npos);
  // After the change the tracked model is far better.
  const std::vector<std::string> a = Lines(tracked.out), b = Lines(fixed.out);
  REQUIRE(a.size() == 6000);
  REQUIRE(b.size() == 6000);
  CHECK(MeanSquaredError(a, csv, 3200, 6000) < 0.2 * MeanSquaredError(b, csv, 3200, 6000));
  // Before it, the two are the same model.
  for (int t = 0; t < 3000; ++t) CHECK(a[t] == b[t]);
}

TEST_CASE("serve tracks a change as learn does, and !stats names it", "[app][drift][serve]") {
  const std::string csv = SwitchingCsv(6000, 3000);
  const std::string flags = "--features=32 --gamma=1 --ridge=0.01";
  const RunResult learned = RunApp("learn " + flags, csv);
  REQUIRE(learned.exit_code == 0);
  // "... 1 change detected: line L (errors xS); the model's memory: the last M lines learned"
  const std::size_t at = learned.err.find("1 change detected: line ");
  REQUIRE(at != std::string::npos);
  const std::string line = learned.err.substr(at + 24, learned.err.find(' ', at + 24) - at - 24);
  const std::size_t times = learned.err.find("(errors x", at);
  const std::string size = learned.err.substr(times + 9, learned.err.find(')', times) - times - 9);
  const std::size_t memory = learned.err.find("the last ", at);
  const std::string remembered =
      learned.err.substr(memory + 9, learned.err.find(' ', memory + 9) - memory - 9);
  TempDir dir;
  // One line at a time, as learn: a block is learned whole before its
  // errors are watched, so a restart comes at the block's end.
  ServerProcess server(dir, {"--features=32", "--gamma=1", "--ridge=0.01", "--block=1"});
  Client client(server.port());
  client.Send(csv + "!stats\n");
  const std::vector<std::string> answers = client.ReadLines(6001);
  REQUIRE(answers.size() == 6001);
  INFO(answers.back());
  CHECK(answers.back().find(" drifts 1 drift_lines " + line + " drift_sizes " + size +
                            " memory_lines " + remembered) != std::string::npos);
  CHECK(server.Terminate() == 0);
}

TEST_CASE("On a stationary stream --forget=auto is beta = 1 to the bit", "[app][drift]") {
  const RunResult tracked = RunApp("learn --predictions=- --features=32", SmoothCsv(3000));
  const RunResult fixed = RunApp("learn --predictions=- --features=32 --forget=1", SmoothCsv(3000));
  CHECK(tracked.out == fixed.out);
  CHECK(tracked.err.find("drift (--forget=auto): 0 changes detected; the model's memory: the "
                         "last 3000 lines learned") != std::string::npos);
}

TEST_CASE("A model keeps tracking drift after a load, and says so", "[app][drift][checkpoint]") {
  TempDir dir;
  const std::string model = dir.File("m.rff");
  const std::string csv = SwitchingCsv(6000, 3000);
  const std::vector<std::string> lines = Lines(csv);
  std::string first, second;
  for (int t = 0; t < 6000; ++t) (t < 2000 ? first : second) += lines[t] + "\n";
  REQUIRE(RunApp("learn --quiet --features=32 --save=" + model, first).exit_code == 0);
  const RunResult resumed = RunApp("learn --load=" + model, second);
  CHECK(resumed.exit_code == 0);
  CHECK(resumed.err.find("1 change detected: line 10") != std::string::npos);
  const RunResult conflict = RunApp("learn --forget=0.99 --load=" + model, second);
  CHECK(conflict.exit_code == 2);
  CHECK(conflict.err.find("--forget=0.99 (the model has auto)") != std::string::npos);
  CHECK(RunApp("learn --forget=sometimes", first).exit_code == 2);
  // The resumed model forgot to its prior at the change: it no longer holds
  // the model it started from, so a merge with that as its base is refused.
  const std::string shard = dir.File("shard.rff");
  REQUIRE(RunApp("learn --quiet --load=" + model + " --save=" + shard, second).exit_code == 0);
  const RunResult merged =
      RunApp("merge --save=" + dir.File("merged.rff") + " --base=" + model + " " + shard, "");
  CHECK(merged.exit_code != 0);
  CHECK(merged.err.find("forgot to its prior on drift after the base") != std::string::npos);
}

TEST_CASE("A run resumed from a checkpoint tracks drift as the run it continues",
          "[app][drift][checkpoint]") {
  // Stopped 30 lines before the change is caught: the detectors' levels and
  // the lines a restart learns again (some with a missing input) come back
  // from the file, so the change is caught on the same line, with the same
  // model, as without the stop.
  TempDir dir;
  const std::string model = dir.File("m.rff");
  std::string csv;
  const std::vector<std::string> switching = Lines(SwitchingCsv(6000, 3000));
  for (std::size_t t = 0; t < switching.size(); ++t) {
    csv += (t % 7 == 0 ? switching[t].substr(switching[t].find(',')) : switching[t]) + "\n";
  }
  const std::string flags = "--predictions=- --features=32 --gamma=1 --ridge=0.01";
  const RunResult whole = RunApp("learn " + flags, csv);
  REQUIRE(whole.exit_code == 0);
  const std::size_t at = whole.err.find("1 change detected: line ");
  REQUIRE(at != std::string::npos);
  const int caught = std::stoi(whole.err.substr(at + 24));
  const int stop = caught - 30;
  const std::vector<std::string> lines = Lines(csv);
  std::string first, second;
  for (int t = 0; t < 6000; ++t) (t < stop ? first : second) += lines[t] + "\n";
  REQUIRE(RunApp("learn --quiet " + flags + " --save=" + model, first).exit_code == 0);
  const RunResult resumed = RunApp("learn --predictions=- --load=" + model, second);
  REQUIRE(resumed.exit_code == 0);
  const std::vector<std::string> a = Lines(whole.out), b = Lines(resumed.out);
  REQUIRE(a.size() == 6000);
  REQUIRE(b.size() == static_cast<std::size_t>(6000 - stop));
  for (int t = stop; t < 6000; ++t) CHECK(a[t] == b[t - stop]);
  CHECK(resumed.err.find("1 change detected: line " + std::to_string(caught - stop)) !=
        std::string::npos);
}

TEST_CASE("A line too large for float32 is not among the lines drift tracking keeps",
          "[app][drift][checkpoint]") {
  // 1e39 is finite in the input and infinite in float32: the model refuses
  // the line, and the checkpoint (which holds no infinity) is still saved.
  TempDir dir;
  std::string csv = SmoothCsv(400);
  csv += "1e39,0.5,1\n" + SmoothCsv(20);
  const RunResult run =
      RunApp("learn --quiet --precision=float32 --save=" + dir.File("m.rff"), csv);
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(RunApp("learn --quiet --load=" + dir.File("m.rff"), SmoothCsv(10)).exit_code == 0);
}

}  // namespace
