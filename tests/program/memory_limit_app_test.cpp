// The memory a model may take (--max_model_memory_mb) counts everything a
// run holds before learning: the model, the warm-up window's dense rows and
// the work of choosing settings on them, so a limit that lets a run start
// is one it keeps to. The built binary on a libsvm file with a stray index.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <string>

#include "tests/app_process.h"

namespace {

using namespace rffstream::testing;

// 401 lines of 3 features, one of which has a stray index 20000: every
// row of the window becomes 20000 numbers wide.
std::string StrayIndexLibsvm() {
  std::string text;
  for (int t = 0; t < 400; ++t) {
    if (t == 200) text += "0.5 20000:1\n";
    text += std::to_string(std::sin(0.1 * t)) + " 1:" + std::to_string(std::cos(0.2 * t)) +
            " 2:" + std::to_string(std::sin(0.3 * t)) + " 3:0.5\n";
  }
  return text;
}

TEST_CASE("The memory estimate counts the warm-up window's rows, before they are made",
          "[app][memory][errors]") {
  // Model: 2 x 256 x 20000 doubles (78 MiB); the window: 401 x 20001 (61 MiB).
  const std::string learn = "learn --quiet --precision=float64 --format=libsvm ";
  const RunResult refused =
      RunApp(learn + "--gamma=0.1 --ridge=0.01 --max_model_memory_mb=120", StrayIndexLibsvm());
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("the model would take about 140 MiB") != std::string::npos);
  CHECK(refused.err.find("401 rows of the warm-up window") != std::string::npos);
  // Choosing the settings on the window is counted too.
  const RunResult tuned = RunApp(learn + "--max_model_memory_mb=160", StrayIndexLibsvm());
  CHECK(tuned.exit_code == 2);
  CHECK(tuned.err.find("and choosing settings on it") != std::string::npos);
  CHECK(RunApp(learn + "--gamma=0.1 --ridge=0.01 --max_model_memory_mb=160", StrayIndexLibsvm())
            .exit_code == 0);
}

}  // namespace
