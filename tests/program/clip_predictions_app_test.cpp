// A regression's predictions stay near the targets it learned
// (rffstream/target_range.h): a sensor whose gain and offset change sends
// the inputs where the model never learned, and its raw answers there go
// far outside anything the stream has shown.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "tests/app_process.h"
#include "tests/temp_dir.h"

namespace {

using namespace rffstream::testing;

// Three inputs in [0, 1) (a low-discrepancy sequence), y = sin 3a + b c;
// from line `shift_at` a's gain is ×30 (y is still the function of the
// true values).
std::string ShiftedSensorCsv(int lines, int shift_at) {
  std::string csv;
  for (int t = 0; t < lines; ++t) {
    const double a = std::fmod(0.7548776662 * (t + 1), 1.0), b = std::fmod(0.5698402910 * (t + 1), 1.0),
                 c = std::fmod(0.3141592654 * (t + 1), 1.0);
    const double y = std::sin(3 * a) + b * c;
    const bool shifted = t >= shift_at;
    csv += std::to_string(shifted ? 30 * a : a) + "," + std::to_string(b) + "," +
           std::to_string(c) + "," + std::to_string(y) + "\n";
  }
  return csv;
}

std::vector<double> Targets(const std::string& csv) {
  std::vector<double> targets;
  for (const std::string& line : Lines(csv)) targets.push_back(std::stod(line.substr(line.rfind(',') + 1)));
  return targets;
}

TEST_CASE("Predictions stay within the learned targets widened by half their width",
          "[app][clip]") {
  TempDir dir;
  const std::string csv = ShiftedSensorCsv(4000, 3000), model = dir.File("m.rff");
  const std::vector<double> targets = Targets(csv);
  const RunResult clipped = RunApp("learn --predictions=- --save=" + model, csv);
  const RunResult raw = RunApp("learn --predictions=- --clip_predictions=false", csv);
  REQUIRE(clipped.exit_code == 0);
  REQUIRE(raw.exit_code == 0);
  const std::vector<std::string> answers = Lines(clipped.out), raw_answers = Lines(raw.out);
  REQUIRE(answers.size() == targets.size());
  REQUIRE(raw_answers.size() == targets.size());
  double low = targets[0], high = targets[0];
  int outside = 0;
  double error = 0, raw_error = 0;
  for (std::size_t t = 1; t < targets.size(); ++t) {
    const double answer = std::stod(answers[t]), raw_answer = std::stod(raw_answers[t]);
    const double width = high - low;
    // Each line's answer with the range of the lines before it (to the
    // digits an answer is written with).
    CHECK(answer >= low - width / 2 - 1e-6);
    CHECK(answer <= high + width / 2 + 1e-6);
    if (raw_answer < low - width / 2 || raw_answer > high + width / 2) ++outside;
    if (t >= 3000) {
      error += (answer - targets[t]) * (answer - targets[t]);
      raw_error += (raw_answer - targets[t]) * (raw_answer - targets[t]);
    }
    low = std::min(low, targets[t]);
    high = std::max(high, targets[t]);
  }
  INFO("squared errors after the shift: clipped " << error << ", raw " << raw_error);
  CHECK(outside > 10);  // the raw model does go far out
  CHECK(error < 0.5 * raw_error);
  // The model keeps its range: `predict` clips too, and `export` states it.
  const RunResult far = RunApp("predict --quiet --load=" + model, "100,-50,0.5\n-80,30,0.2\n");
  REQUIRE(far.exit_code == 0);
  const double width = high - low;
  for (const std::string& line : Lines(far.out)) {
    CHECK(std::stod(line) >= low - width / 2 - 1e-6);
    CHECK(std::stod(line) <= high + width / 2 + 1e-6);
  }
  const RunResult exported = RunApp("export --load=" + model, "");
  REQUIRE(exported.exit_code == 0);
  CHECK(exported.out.find("\"target_range\": [[" + std::to_string(low).substr(0, 5)) !=
        std::string::npos);
}

TEST_CASE("A loaded model keeps its targets' range, and a classifier's answers are never clipped",
          "[app][clip]") {
  TempDir dir;
  const std::string csv = ShiftedSensorCsv(600, 600), model = dir.File("m.rff");
  // Learned in two runs: the second starts from the first's range.
  const std::vector<std::string> lines = Lines(csv);
  std::string first, second;
  for (std::size_t t = 0; t < lines.size(); ++t) (t < 300 ? first : second) += lines[t] + "\n";
  REQUIRE(RunApp("learn --quiet --save=" + model, first).exit_code == 0);
  const std::string resumed_model = dir.File("resumed.rff");
  const RunResult resumed = RunApp(
      "learn --predictions=- --load=" + model + " --save=" + resumed_model, "100,-50,0.5,10\n");
  REQUIRE(resumed.exit_code == 0);
  const std::vector<double> targets = Targets(first);
  const double low = *std::min_element(targets.begin(), targets.end()),
               high = *std::max_element(targets.begin(), targets.end());
  const double answer = std::stod(Lines(resumed.out).at(0));
  CHECK(answer >= low - (high - low) / 2 - 1e-6);
  CHECK(answer <= high + (high - low) / 2 + 1e-6);
  // The saved range: the first run's targets and the new line's 10.
  const RunResult exported = RunApp("export --load=" + resumed_model, "");
  REQUIRE(exported.exit_code == 0);
  const std::size_t at = exported.out.find("\"target_range\": [[");
  REQUIRE(at != std::string::npos);
  const std::string bounds = exported.out.substr(at + 18);
  CHECK(std::stod(bounds) == Approx(low).epsilon(1e-12));
  CHECK(std::stod(bounds.substr(bounds.find(',') + 1)) == 10);
  std::string classes;
  for (int t = 0; t < 400; ++t) {
    const double x = std::sin(0.37 * t);
    classes += std::to_string(100 * x) + "," + std::to_string(x > 0 ? 1 : 0) + "\n";
  }
  const RunResult classified = RunApp("learn --quiet --classes=2 --predictions=-", classes);
  REQUIRE(classified.exit_code == 0);
  for (const std::string& line : Lines(classified.out)) CHECK((line == "0" || line == "1"));
}

}  // namespace
