// --ridge=auto past the warm-up window (rffstream/stream/ridge_follower.h): the ridge
// chosen again by generalized cross-validation at 4 times the window's
// lines, shown in the summary and kept in the checkpoint, in either
// precision; not when the ridge was given.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <string>

#include "tests/app_process.h"
#include "tests/temp_dir.h"

namespace {

using namespace rffstream::testing;

// The summary's "re-chosen ... line L (N samples) A -> B" entries.
std::string RidgeLine(const std::string& log) {
  const std::size_t at = log.find("ridge (--ridge=auto) re-chosen");
  if (at == std::string::npos) return "";
  return log.substr(at, log.find('\n', at) - at);
}

TEST_CASE("The ridge is chosen again as the stream grows", "[app][ridge_follower]") {
  TempDir dir;
  const std::string model = dir.File("m.rff");
  const std::string csv = SmoothCsv(4000);
  const RunResult learned = RunApp("learn --features=64 --save=" + model, csv);
  REQUIRE(learned.exit_code == 0);
  const std::string line = RidgeLine(learned.err);
  INFO(learned.err);
  REQUIRE(!line.empty());
  CHECK(line.find(": line 1024 (1024 samples) ") != std::string::npos);
  // The last choice is the model's ridge, saved with it.
  const std::string last = line.substr(line.rfind("-> ") + 3);
  const RunResult exported = RunApp("export --format=json --load=" + model, "");
  REQUIRE(exported.exit_code == 0);
  const std::size_t ridge = exported.out.find("\"ridge\": ");
  REQUIRE(ridge != std::string::npos);
  CHECK(std::stod(exported.out.substr(ridge + 9)) == Approx(std::stod(last)).epsilon(1e-5));

  // A drift restart goes back to the window's ridge (the grown model's
  // would be too small for its few lines), and the choices start again.
  std::string switching;
  for (int t = 0; t < 6000; ++t) {
    const double a = std::sin(0.37 * t), b = std::cos(0.23 * t);
    const double y = t < 3000 ? a * a + 0.5 * a : 4.0 + 2.0 * b;
    switching += std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(y) + "\n";
  }
  const RunResult drifted = RunApp("learn --features=32", switching);
  REQUIRE(drifted.exit_code == 0);
  const std::string changes = RidgeLine(drifted.err);
  INFO(drifted.err);
  const std::size_t window = changes.find("line 1024 (1024 samples) ");
  REQUIRE(window != std::string::npos);
  const std::string window_ridge = changes.substr(window + 25, changes.find(' ', window + 25) - window - 25);
  const std::size_t restart = changes.find("(drift restart) ");
  REQUIRE(restart != std::string::npos);
  const std::string back = changes.substr(changes.find("-> ", restart) + 3);
  CHECK(back.substr(0, window_ridge.size()) == window_ridge);

  // float32 chooses as float64 does: on the README's Mackey–Glass series,
  // fitted to 10⁻⁸ of its targets' squares, below what float32's Gram
  // resolves (its noise sums tell the residuals), and on a noisy stream.
  const RunResult series = RunApp("generate --series=mackey-glass --samples=2000", "");
  REQUIRE(series.exit_code == 0);
  const RunResult fitted = RunApp("learn --features=256 --precision=float32", series.out);
  REQUIRE(fitted.exit_code == 0);
  CHECK(RidgeLine(fitted.err).find(": line 1024 (1024 samples) 0.0001 -> 1e-06") !=
        std::string::npos);
  const std::string noisy = FriedmanCsv(4000, 16);
  const RunResult wide = RunApp("learn --features=64", noisy);
  const RunResult single = RunApp("learn --features=64 --precision=float32", noisy);
  REQUIRE(wide.exit_code == 0);
  REQUIRE(single.exit_code == 0);
  INFO(single.err);
  CHECK(RidgeLine(single.err).find(": line 1024 (1024 samples) ") != std::string::npos);
  CHECK(RidgeLine(single.err) == RidgeLine(wide.err));
  // Not with a given ridge, or forgetting.
  for (const std::string flags : {"--ridge=0.01", "--forget=0.999"}) {
    const RunResult other = RunApp("learn --features=64 " + flags, csv);
    CHECK(other.exit_code == 0);
    CHECK(RidgeLine(other.err).empty());
  }
}

}  // namespace
