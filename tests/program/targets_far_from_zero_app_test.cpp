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

// The RMSE of the answers after the warm-up window.
double RmseAfterWindow(const std::string& answers, const std::vector<double>& targets) {
  const std::vector<std::string> lines = Lines(answers);
  REQUIRE(lines.size() == targets.size());
  double squares = 0;
  for (std::size_t t = kWindow; t < lines.size(); ++t) {
    const double error = std::stod(lines[t]) - targets[t];
    squares += error * error;
  }
  return std::sqrt(squares / static_cast<double>(lines.size() - kWindow));
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
