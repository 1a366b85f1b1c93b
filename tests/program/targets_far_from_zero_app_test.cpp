// Targets far from zero compared with their spread (a pressure of 101325 Pa
// give or take a few): the model learns them less their mean on the warm-up
// window, so the stream scores as the same stream near zero would, in both
// precisions, and a saved model answers in the targets' own units. The
// built binary, run by the shell.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/app_process.h"

namespace {

using namespace rffstream::testing;

constexpr int kLines = 3000, kWindow = 256;

// Three smooth inputs, a target of unit spread plus `offset`, with
// deterministic pseudo-noise.
std::string Stream(double offset, std::vector<double>& targets) {
  std::string csv;
  targets.clear();
  char line[160];
  for (int t = 0; t < kLines; ++t) {
    const double a = std::sin(0.37 * t), b = std::cos(0.11 * t + 1), c = std::sin(0.05 * t) * b;
    const double y = offset + std::sin(2 * a) + a * c + 0.05 * std::sin(12.9898 * t);
    std::snprintf(line, sizeof line, "%.17g,%.17g,%.17g,%.17g\n", a, b, c, y);
    csv += line;
    targets.push_back(y);
  }
  return csv;
}

// The sum of squared errors of answers [first, last) to their targets.
double Squares(const std::string& answers, const std::vector<double>& targets, std::size_t first,
               std::size_t last) {
  const std::vector<std::string> lines = Lines(answers);
  REQUIRE(lines.size() == targets.size());
  double squares = 0;
  for (std::size_t t = first; t < last; ++t) {
    const double error = std::stod(lines[t]) - targets[t];
    squares += error * error;
  }
  return squares;
}

// The RMSE of the answers after the warm-up window.
double RmseAfterWindow(const std::string& answers, const std::vector<double>& targets) {
  return std::sqrt(Squares(answers, targets, kWindow, targets.size()) /
                   static_cast<double>(targets.size() - kWindow));
}

// The summary's "after it: N lines, rmse R": R.
double SummaryRmseAfterWindow(const std::string& err) {
  const std::size_t at = err.find("; after it: ");
  REQUIRE(at != std::string::npos);
  return std::stod(err.substr(err.find("rmse ", at) + 5));
}

TEST_CASE("Targets far from zero score as targets near zero, in both precisions",
          "[app][far_from_zero]") {
  for (const char* precision : {"float32", "float64"}) {
    std::vector<double> targets;
    const RunResult near = RunApp(std::string("learn --quiet --predictions=- --precision=") + precision,
                                  Stream(0, targets));
    REQUIRE(near.exit_code == 0);
    const double near_rmse = RmseAfterWindow(near.out, targets);
    for (const double offset : {1e4, 1e6, 1e8}) {
      INFO(precision << ", targets " << offset << " from zero");
      const RunResult far = RunApp(std::string("learn --quiet --predictions=- --precision=") +
                                       precision,
                                   Stream(offset, targets));
      REQUIRE(far.exit_code == 0);
      // Learned as given, the intercept's ridge and the window's tuning
      // would pay for the mean (docs/real_data.md has what that cost).
      CHECK(RmseAfterWindow(far.out, targets) == Approx(near_rmse).epsilon(0.02));
    }
  }
}

TEST_CASE("Far from zero, the window's float32 answers keep their digits, and the summary after "
          "the window holds across a resume", "[app][far_from_zero][checkpoint]") {
  std::vector<double> targets;
  const std::string stream = Stream(1e8, targets);
  // The provisional model's answers (lines 2 to 256: the first has nothing
  // to go on) score alike in both precisions.
  double window[2];
  for (int p = 0; p < 2; ++p) {
    const RunResult run = RunApp(std::string("learn --quiet --predictions=- --precision=") +
                                     (p == 0 ? "float32" : "float64"),
                                 stream);
    REQUIRE(run.exit_code == 0);
    window[p] = std::sqrt(Squares(run.out, targets, 1, kWindow) / (kWindow - 1));
  }
  CHECK(window[0] == Approx(window[1]).epsilon(0.05));
  // Learned in two runs, the second from the first's checkpoint: its summary
  // counts the first run's lines after the window too (the window's first
  // answer, off by 1e8, must not swamp them).
  TempDir dir;
  const std::string model = dir.File("m.rff");
  const std::vector<std::string> lines = Lines(stream);
  std::string first, second;
  for (std::size_t t = 0; t < lines.size(); ++t) (t < 1500 ? first : second) += lines[t] + "\n";
  const RunResult before = RunApp("learn --predictions=- --save=" + model, first);
  const RunResult after = RunApp("learn --predictions=- --load=" + model, second);
  REQUIRE(before.exit_code == 0);
  REQUIRE(after.exit_code == 0);
  const std::vector<double> first_targets(targets.begin(), targets.begin() + 1500),
      second_targets(targets.begin() + 1500, targets.end());
  const double squares = Squares(before.out, first_targets, kWindow, 1500) +
                         Squares(after.out, second_targets, 0, second_targets.size());
  CHECK(SummaryRmseAfterWindow(after.err) ==
        Approx(std::sqrt(squares / static_cast<double>(kLines - kWindow))).epsilon(1e-3));
  // The second half in two shards of the first run's model, merged with it
  // as their base: the merged model's summary counts every shard's lines.
  std::string halves[2];
  for (std::size_t t = 1500; t < lines.size(); ++t) halves[t < 2250 ? 0 : 1] += lines[t] + "\n";
  const std::string shards[2] = {dir.File("s0.rff"), dir.File("s1.rff")};
  double shard_squares = 0;
  for (int s = 0; s < 2; ++s) {
    const RunResult shard = RunApp("learn --quiet --predictions=- --load=" + model +
                                       " --save=" + shards[s], halves[s]);
    REQUIRE(shard.exit_code == 0);
    const std::vector<double> part(targets.begin() + 1500 + 750 * s,
                                   targets.begin() + 2250 + 750 * s);
    shard_squares += Squares(shard.out, part, 0, part.size());
  }
  const std::string merged = dir.File("merged.rff");
  REQUIRE(RunApp("merge --base=" + model + " --save=" + merged + " " + shards[0] + " " + shards[1], "")
              .exit_code == 0);
  const RunResult last = RunApp("learn --predictions=- --load=" + merged, lines.back() + "\n");
  REQUIRE(last.exit_code == 0);
  const double last_squares = Squares(last.out, {targets.back()}, 0, 1);
  CHECK(SummaryRmseAfterWindow(last.err) ==
        Approx(std::sqrt((Squares(before.out, first_targets, kWindow, 1500) + shard_squares +
                          last_squares) /
                         static_cast<double>(kLines + 1 - kWindow)))
            .epsilon(1e-3));
}

TEST_CASE("A model of targets far from zero saves, loads and exports in their units",
          "[app][far_from_zero][checkpoint]") {
  TempDir dir;
  const std::string model = dir.File("m.rff");
  std::vector<double> targets;
  const std::string stream = Stream(1e6, targets);
  REQUIRE(RunApp("learn --quiet --save=" + model, stream).exit_code == 0);
  // The last lines again, as new data: answered within the noise.
  std::string last;
  for (std::size_t t = targets.size() - 20; t < targets.size(); ++t) last += Lines(stream)[t] + "\n";
  const RunResult predicted = RunApp("predict --quiet --load=" + model, last);
  REQUIRE(predicted.exit_code == 0);
  const std::vector<std::string> answers = Lines(predicted.out);
  REQUIRE(answers.size() == 20);
  for (std::size_t i = 0; i < answers.size(); ++i) {
    CHECK(std::abs(std::stod(answers[i]) - targets[targets.size() - 20 + i]) < 0.2);
  }
  // The JSON's formula holds the offset in its intercept.
  const RunResult exported = RunApp("export --load=" + model, "");
  const std::size_t at = exported.out.find("\"intercept_weight\": ");
  REQUIRE(at != std::string::npos);
  CHECK(std::abs(std::stod(exported.out.substr(at + 20)) - 1e6) < 10);
}

}  // namespace
