// End-to-end tests of `rffstream learn` with checkpoints: --save, --save_every, --load and the task a model carries: the built binary, run by the
// shell with real files for standard input, output and error.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/app_process.h"

namespace {

using namespace rffstream::testing;

TEST_CASE("learn --save then --load continues exactly where it stopped", "[app][checkpoint]") {
  TempDir dir;
  const std::string model = (dir.path() / "model.rff").string();
  const std::string csv = SmoothCsv(400);
  const size_t half = [&] {
    size_t position = 0;
    for (int line = 0; line < 200; ++line) position = csv.find('\n', position) + 1;
    return position;
  }();
  // Settings chosen on a warm-up window would differ between 200 and 400
  // lines: give them.
  const std::string settings = " --standardize=50 --gamma=0.5 --ridge=0.01";
  REQUIRE(RunApp("learn --quiet --save=" + model + settings, csv.substr(0, half)).exit_code == 0);
  const RunResult resumed = RunApp("learn --predictions=- --load=" + model, csv.substr(half));
  const RunResult uninterrupted = RunApp("learn --predictions=- --quiet" + settings, csv);
  REQUIRE(resumed.exit_code == 0);
  const std::vector<std::string> all = Lines(uninterrupted.out);
  CHECK(Lines(resumed.out) == std::vector<std::string>(all.begin() + 200, all.end()));
  CHECK(resumed.err.find("resumed from a checkpoint: metrics cover all 400 samples") !=
        std::string::npos);
}

TEST_CASE("learn --save_every writes checkpoints during the run", "[app][checkpoint]") {
  TempDir dir;
  const std::string model = (dir.path() / "model.rff").string();
  REQUIRE(RunApp("learn --quiet --save_every=50 --save=" + model, SmoothCsv(120)).exit_code == 0);
  CHECK(std::filesystem::exists(model));
  CHECK(RunApp("learn --save_every=50", "").exit_code == 2);  // needs --save
}

TEST_CASE("learn --load with conflicting model flags is a usage error", "[app][checkpoint][errors]") {
  TempDir dir;
  const std::string model = (dir.path() / "model.rff").string();
  REQUIRE(RunApp("learn --quiet --features=32 --ridge=0.01 --save=" + model, SmoothCsv(20)).exit_code == 0);
  const RunResult result = RunApp("learn --features=64 --ridge=0.5 --load=" + model, SmoothCsv(5));
  CHECK(result.exit_code == 2);
  CHECK(result.err.find("flags conflict with the model loaded from " + model +
                        ": --features=64 (the model has 32), --ridge=0.5 (the model has 0.01)") !=
        std::string::npos);
}

TEST_CASE("learn --load rejects input of the wrong dimension", "[app][checkpoint][errors]") {
  TempDir dir;
  const std::string model = (dir.path() / "model.rff").string();
  REQUIRE(RunApp("learn --quiet --features=32 --save=" + model, SmoothCsv(20)).exit_code == 0);
  const RunResult result = RunApp("learn --load=" + model, "1,2,3,4\n");
  CHECK(result.exit_code == 3);
  CHECK(result.err.find("line 1: 4 fields, but the model from " + model +
                        " reads lines of 3 (2 input columns, 1 target columns, 0 ignored), or of 2 "
                        "without the targets") !=
        std::string::npos);
}

TEST_CASE("A corrupted checkpoint is refused by name", "[app][checkpoint][errors]") {
  TempDir dir;
  const std::string model = (dir.path() / "model.rff").string();
  REQUIRE(RunApp("learn --quiet --features=32 --save=" + model, SmoothCsv(20)).exit_code == 0);
  {
    std::fstream file(model, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(100);
    file.put('\x7f');
  }
  const RunResult result = RunApp("predict --load=" + model, "1,2\n");
  CHECK(result.exit_code == 1);
  CHECK(result.err.find(model + ": checksum mismatch (the file is corrupted or truncated)") !=
        std::string::npos);
}

TEST_CASE("A classifier's checkpoint is used right without its flags", "[app][checkpoint][task]") {
  TempDir dir;
  const std::string model = dir.File("classes.rff");
  const RunResult learned =
      RunApp("learn --header --classes=3 --features=64 --gamma=1 --quiet --save=" + model, ClassCsv(300));
  REQUIRE(learned.exit_code == 0);
  // learn --load, no --classes, no --header: the model knows both.
  const RunResult resumed = RunApp("learn --load=" + model + " --predictions=-", ClassCsv(100));
  CHECK(resumed.exit_code == 0);
  const std::vector<std::string> lines = Lines(resumed.out);
  REQUIRE(lines.size() == 100);
  for (const std::string& line : lines) CHECK((line == "0" || line == "1" || line == "2"));
  // The metrics resume too: 300 + 100 samples.
  CHECK(resumed.err.find("resumed from a checkpoint: metrics cover all 400 samples") !=
        std::string::npos);
  CHECK(resumed.err.find("progressive validation: accuracy ") != std::string::npos);
  const RunResult predicted = RunApp("predict --load=" + model, ClassCsv(50));
  CHECK(predicted.exit_code == 0);
  CHECK(Lines(predicted.out).size() == 50);
  CHECK(predicted.err.find("evaluation: accuracy ") != std::string::npos);
  // Repeating the model's flags is fine; contradicting them is named.
  CHECK(RunApp("learn --header --classes=3 --features=64 --gamma=1 --quiet --load=" + model,
               ClassCsv(10)).exit_code == 0);
  const RunResult other_target = RunApp("learn --target=first --load=" + model, ClassCsv(10));
  CHECK(other_target.exit_code == 2);
  CHECK(other_target.err.find("--target=first (the model has column 2 'label')") != std::string::npos);
  const RunResult regression = RunApp("learn --classes=0 --load=" + model, ClassCsv(10));
  CHECK(regression.exit_code == 2);
  CHECK(regression.err.find("--classes=0 (the model has 3 classes)") != std::string::npos);
  const RunResult renamed = RunApp("learn --load=" + model, "a,b,c\n1,2,0\n");
  CHECK(renamed.exit_code == 3);
  CHECK(renamed.err.find("the header (a, b, c) is not the one the model from " + model +
                         " learned with (x, y, label)") != std::string::npos);
}

TEST_CASE("A resumed run with several targets keeps every target's metrics", "[app][checkpoint][task]") {
  TempDir dir;
  const std::string model = dir.File("targets.rff");
  std::string first, second;
  for (int t = 0; t < 200; ++t) {
    const double a = std::sin(0.1 * t), b = std::cos(0.07 * t);
    (t < 100 ? first : second) += std::to_string(a) + "," + std::to_string(b) + "," +
                                  std::to_string(a * b) + "," + std::to_string(a + b) + "\n";
  }
  const std::string flags = " --targets=2,3 --features=32 --standardize=0 --gamma=0.5 --ridge=0.01";
  const RunResult whole = RunApp("learn" + flags, first + second);
  REQUIRE(whole.exit_code == 0);
  REQUIRE(RunApp("learn --save=" + model + flags, first).exit_code == 0);
  const RunResult resumed = RunApp("learn --load=" + model, second);
  REQUIRE(resumed.exit_code == 0);
  const auto per_target = [](const std::string& err) {
    const size_t at = err.find("rmse per target:");
    return at == std::string::npos ? std::string("none") : err.substr(at, err.find('\n', at) - at);
  };
  CHECK(per_target(resumed.err) == per_target(whole.err));
  CHECK(per_target(whole.err) != "none");
}

TEST_CASE("The command line that saved a model loads it too", "[app][checkpoint][task]") {
  TempDir dir;
  const std::string model = dir.File("m.rff");
  const std::string flags = " --gamma=0.05 --standardize=20 --ridge=0.1 --features=32 --quiet --save=" + model;
  REQUIRE(RunApp("learn" + flags, SmoothCsv(100)).exit_code == 0);
  CHECK(RunApp("learn" + flags + " --load=" + model, SmoothCsv(100)).exit_code == 0);
  REQUIRE(RunApp("learn --gamma=auto --quiet --features=32 --save=" + model, SmoothCsv(300)).exit_code == 0);
  CHECK(RunApp("learn --gamma=auto --quiet --load=" + model, SmoothCsv(10)).exit_code == 0);
  const RunResult numeric = RunApp("learn --gamma=0.05 --load=" + model, SmoothCsv(10));
  CHECK(numeric.exit_code == 2);
  CHECK(numeric.err.find("chosen by --gamma=auto") != std::string::npos);
}

TEST_CASE("A checkpoint that cannot be written is refused before learning", "[app][checkpoint][errors]") {
  TempDir dir;
  const auto start = std::chrono::steady_clock::now();
  const RunResult missing =
      RunApp("learn --save_every=1 --save=" + dir.File("missing/m.rff"), SmoothCsv(9000));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK(missing.exit_code == 2);
  CHECK(missing.err == "rffstream learn: --save: cannot save checkpoint into directory " +
                           dir.File("missing") + ": No such file or directory\n");
  const RunResult device = RunApp("learn --save=/dev/null", SmoothCsv(10));
  CHECK(device.exit_code == 2);
  CHECK(device.err.find("/dev/null: it exists and is not a regular file") != std::string::npos);
  CHECK(std::filesystem::is_character_file("/dev/null"));
}

}  // namespace
