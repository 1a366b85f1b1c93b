// End-to-end tests of `rffstream learn`: the built binary, run by the shell
// with real files for standard input, output and error.
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/child_process.h"
#include "tests/temp_dir.h"

namespace {

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

using rffstream::testing::TempDir;

// Runs the app with `arguments`, `input` on standard input, and optional
// environment assignments ("NAME=value") in front.
RunResult RunApp(const std::string& arguments, const std::string& input,
                 const std::string& environment = "") {
  TempDir dir;
  const auto in = dir.path() / "in", out = dir.path() / "out", err = dir.path() / "err";
  std::ofstream(in) << input;
  const std::string command = environment + " " + std::string(RFFSTREAM_APP_PATH) + " " +
                              arguments + " < " +
                              in.string() + " > " + out.string() + " 2> " + err.string();
  const int status = std::system(command.c_str());
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = rffstream::testing::ReadText(out);
  result.err = rffstream::testing::ReadText(err);
  return result;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

std::string SmoothCsv(int lines) {
  std::string csv;
  for (int t = 0; t < lines; ++t) {
    const double a = std::sin(0.1 * t), b = std::cos(0.07 * t);
    csv += std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(a * b + a) + "\n";
  }
  return csv;
}

TEST_CASE("learn writes one prediction per line and a summary", "[app]") {
  const RunResult result = RunApp("learn --predictions=- --features=64", SmoothCsv(300));
  CHECK(result.exit_code == 0);
  CHECK(Lines(result.out).size() == 300);
  CHECK(result.err.find("finished: 300 lines read, 300 learned, 0 predicted only, 0 rejected") !=
        std::string::npos);
  CHECK(result.err.find("progressive validation: rmse") != std::string::npos);
}

TEST_CASE("learn skips bad lines with their line numbers and keeps the rest", "[app][errors]") {
  const std::string input = "1,2,3\n1,2\n4,5,6\nx,1,2\n7,8,nan\n1,2,3,4\n0.5,0.5,1\n";
  const RunResult result = RunApp("learn --predictions=- --features=16", input);
  CHECK(result.exit_code == 0);
  const std::vector<std::string> lines = Lines(result.out);
  REQUIRE(lines.size() == 7);
  CHECK(lines[1].empty());  // rejected lines keep their place as empty lines
  CHECK(lines[3].empty());
  CHECK_FALSE(lines[6].empty());
  CHECK(result.err.find("stdin: line 2: expected 3 fields, got 2 (skipped)") != std::string::npos);
  CHECK(result.err.find("stdin: line 4: field 1: 'x' is not a number (skipped)") !=
        std::string::npos);
  CHECK(result.err.find("stdin: line 5: field 3: 'nan' is not finite (NaN/Inf) (skipped)") !=
        std::string::npos);
  CHECK(result.err.find("stdin: line 6: expected 3 fields, got 4 (skipped)") != std::string::npos);
  CHECK(result.err.find("3 learned, 0 predicted only, 4 rejected") != std::string::npos);
}

TEST_CASE("Bad lines anywhere in a long stream change nothing but their own output line",
          "[app][errors]") {
  // Lines are read and parsed ahead in batches of up to 512: bad lines
  // at and around the batch boundaries, and a blank one, must not be learned
  // from and must not move any other line's output.
  const std::vector<std::string> good = Lines(SmoothCsv(2000));
  const std::vector<int> bad_at = {255, 511, 512, 513, 1024, 1500};  // 0-based output lines
  std::string with_bad, clean;
  for (std::size_t i = 0, next_good = 0; next_good < good.size(); ++i) {
    if (std::find(bad_at.begin(), bad_at.end(), static_cast<int>(i)) != bad_at.end()) {
      with_bad += i == 1024 ? "\n" : "1,oops,2\n";
      continue;
    }
    with_bad += good[next_good] + "\n";
    clean += good[next_good++] + "\n";
  }
  for (const char* block : {"1", "64"}) {
    const std::string flags = std::string("learn --predictions=- --features=32 --block=") + block;
    const RunResult mixed = RunApp(flags, with_bad);
    const RunResult reference = RunApp(flags + " --quiet", clean);
    REQUIRE(mixed.exit_code == 0);
    const std::vector<std::string> got = Lines(mixed.out), expected = Lines(reference.out);
    REQUIRE(got.size() == good.size() + bad_at.size());
    std::vector<std::string> kept;
    for (std::size_t i = 0; i < got.size(); ++i) {
      const bool bad = std::find(bad_at.begin(), bad_at.end(), static_cast<int>(i)) != bad_at.end();
      CHECK(got[i].empty() == bad);
      if (!bad) kept.push_back(got[i]);
    }
    REQUIRE(kept.size() == expected.size());
    if (std::string(block) == "1") {
      CHECK(kept == expected);  // bit for bit: the same samples learned in the same order
    } else {
      // A bad line ends the block before it, so the blocks (and the rounding)
      // differ from the clean run's.
      for (std::size_t i = 0; i < kept.size(); ++i) {
        CHECK(std::stod(kept[i]) == Approx(std::stod(expected[i])).margin(1e-9));
      }
    }
    for (int line : {256, 512, 513, 514, 1501}) {  // 1-based line numbers
      CHECK(mixed.err.find("stdin: line " + std::to_string(line) +
                           ": field 2: 'oops' is not a number (skipped)") != std::string::npos);
    }
    CHECK(mixed.err.find("2000 learned, 0 predicted only, 5 rejected") != std::string::npos);
  }
}

TEST_CASE("learn rejects an over-long line and goes on", "[app][errors]") {
  const std::string input = "1,2,3\n" + std::string(500, '1') + ",2,3\n4,5,6\n";
  const RunResult result = RunApp("learn --predictions=- --features=16 --max_line_bytes=100", input);
  CHECK(result.exit_code == 0);
  CHECK(Lines(result.out).size() == 3);
  CHECK(result.err.find("line 2: line longer than 100 bytes (--max_line_bytes) (skipped)") !=
        std::string::npos);
}

TEST_CASE("learn --strict stops at the first bad line with exit code 3", "[app][errors]") {
  const RunResult result = RunApp("learn --strict --features=16", "1,2,3\n4,oops,6\n7,8,9\n");
  CHECK(result.exit_code == 3);
  CHECK(result.err.find("stdin: line 2: field 2: 'oops' is not a number") != std::string::npos);
}

TEST_CASE("learn predicts but does not learn lines without a target", "[app]") {
  const RunResult result = RunApp("learn --predictions=- --features=16", "1,2,3\n4,5,\n7,8,9\n");
  CHECK(result.exit_code == 0);
  CHECK(Lines(result.out).size() == 3);
  CHECK(result.err.find("2 learned, 1 predicted only, 0 rejected") != std::string::npos);
}

TEST_CASE("learn reads a header and a target by name", "[app]") {
  const RunResult result =
      RunApp("learn --header --target=y --predictions=- --features=16 --quiet",
             "y,a,b\n1,2,3\n4,5,6\n");
  CHECK(result.exit_code == 0);
  CHECK(Lines(result.out).size() == 2);
  CHECK(result.err.empty());
}

TEST_CASE("learn with a warm-up window still answers every line in order", "[app]") {
  const RunResult result =
      RunApp("learn --standardize=50 --predictions=- --features=32 --quiet", SmoothCsv(120));
  CHECK(result.exit_code == 0);
  CHECK(Lines(result.out).size() == 120);
}

TEST_CASE("learn usage errors exit with code 2", "[app][errors]") {
  SECTION("unknown target column") {
    const RunResult result = RunApp("learn --target=price", "1,2,3\n");
    CHECK(result.exit_code == 2);
    CHECK(result.err.find("--target=price: a column name needs a header row (--header)") !=
          std::string::npos);
  }
  SECTION("bad map") {
    const RunResult result = RunApp("learn --map=sine", "1,2,3\n");
    CHECK(result.exit_code == 2);
    CHECK(result.err.find("unknown feature map 'sine'") != std::string::npos);
  }
  SECTION("gamma and lengthscale together") {
    const RunResult result = RunApp("learn --gamma=1 --lengthscale=2", "1,2,3\n");
    CHECK(result.exit_code == 2);
    CHECK(result.err.find("--gamma and --lengthscale are exclusive") != std::string::npos);
  }
  SECTION("unknown command") {
    CHECK(RunApp("teach", "").exit_code == 2);
  }
  SECTION("a ridge of zero is refused, not replaced") {
    const RunResult result = RunApp("learn --ridge=0", "1,2,3\n");
    CHECK(result.exit_code == 2);
    CHECK(result.err.find("ridge must be in [1e-12, 1e+12], got 0") != std::string::npos);
  }
}

TEST_CASE("learn reports a missing input file with exit code 1", "[app][errors]") {
  const RunResult result = RunApp("learn --input=/nonexistent/data.csv", "");
  CHECK(result.exit_code == 1);
  CHECK(result.err.find("cannot open input file /nonexistent/data.csv: No such file or directory") !=
        std::string::npos);
}

TEST_CASE("generate piped into learn fits Mackey-Glass", "[app]") {
  TempDir dir;
  const auto err = dir.path() / "err";
  const std::string app = RFFSTREAM_APP_PATH;
  const std::string command = app + " generate --samples=3000 | " + app +
                              " learn --features=128 2> " + err.string();
  REQUIRE(std::system(command.c_str()) == 0);
  const std::string log = rffstream::testing::ReadText(err);
  const size_t summary = log.find("progressive validation");
  REQUIRE(summary != std::string::npos);
  CHECK(std::stod(log.substr(log.find("r2 ", summary) + 3)) > 0.99);
}

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
                        " reads lines of 3 (2 inputs, 1 target columns, 0 ignored)") !=
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

TEST_CASE("predict scores labelled lines and predicts input-only lines without learning", "[app]") {
  TempDir dir;
  const std::string model = (dir.path() / "model.rff").string();
  REQUIRE(RunApp("learn --quiet --features=32 --save=" + model, SmoothCsv(200)).exit_code == 0);
  const RunResult inputs_only = RunApp("predict --quiet --load=" + model, "0.1,0.2\n0.3,0.4\n");
  CHECK(inputs_only.exit_code == 0);
  CHECK(Lines(inputs_only.out).size() == 2);
  const RunResult labelled = RunApp("predict --load=" + model, SmoothCsv(50));
  CHECK(labelled.exit_code == 0);
  CHECK(Lines(labelled.out).size() == 50);
  CHECK(labelled.err.find("50 scored") != std::string::npos);
  CHECK(labelled.err.find("evaluation: rmse") != std::string::npos);
  // Nothing was learned: the same lines predict the same values again.
  CHECK(RunApp("predict --quiet --load=" + model, SmoothCsv(50)).out == labelled.out);
  CHECK(RunApp("predict", "1,2\n").exit_code == 2);  // needs --load
}

TEST_CASE("export writes the model as JSON", "[app][checkpoint]") {
  TempDir dir;
  const std::string model = (dir.path() / "model.rff").string();
  REQUIRE(RunApp("learn --quiet --features=8 --save=" + model, SmoothCsv(20)).exit_code == 0);
  const RunResult result = RunApp("export --format=json --load=" + model, "");
  CHECK(result.exit_code == 0);
  CHECK(result.out.find("\"format\": \"rffstream-model\"") != std::string::npos);
  CHECK(result.out.find("\"num_features\": 8") != std::string::npos);
  CHECK(RunApp("export --format=xml --load=" + model, "").exit_code == 2);
}

TEST_CASE("The --simd flag lists the kernels and forces one", "[app][simd]") {
  const RunResult list = RunApp("--simd=list", "");
  CHECK(list.exit_code == 0);
  CHECK(list.out.find("scalar") != std::string::npos);
  CHECK(list.out.find(" *\n") != std::string::npos);  // the chosen one is marked
  // Every kernel the CPU has gives the same predictions to rounding.
  const RunResult best = RunApp("learn --predictions=- --quiet", SmoothCsv(300));
  const std::vector<std::string> reference = Lines(best.out);
  REQUIRE(reference.size() == 300);
  for (const std::string& listed : Lines(list.out)) {
    const std::string kernel = listed.substr(0, listed.find(' '));
    INFO("--simd=" << kernel);
    const RunResult forced = RunApp("--simd=" + kernel + " learn --predictions=- --quiet", SmoothCsv(300));
    CHECK(forced.exit_code == 0);
    const std::vector<std::string> lines = Lines(forced.out);
    REQUIRE(lines.size() == reference.size());
    for (size_t i = 0; i < lines.size(); ++i) {
      CHECK(std::stod(lines[i]) == Approx(std::stod(reference[i])).epsilon(1e-9).margin(1e-9));
    }
  }
}

TEST_CASE("An unsupported --simd or RFFSTREAM_SIMD is a usage error", "[app][simd][errors]") {
  const RunResult flag = RunApp("--simd=neon learn", "1,2,3\n");
  CHECK(flag.exit_code == 2);
  CHECK(flag.err.find("rffstream: --simd: SIMD kernel 'neon' is not supported on this CPU (supported: ") !=
        std::string::npos);
  const RunResult environment = RunApp("learn", "1,2,3\n", "RFFSTREAM_SIMD=neon");
  CHECK(environment.exit_code == 2);
  CHECK(environment.err.find("rffstream: RFFSTREAM_SIMD: SIMD kernel 'neon'") != std::string::npos);
}

TEST_CASE("learn --targets learns several columns and writes one prediction each", "[app][outputs]") {
  const RunResult result =
      RunApp("learn --header --targets=y,z --predictions=- --features=32", "a,y,b,z\n1,2,3,4\n2,3,4,5\n3,4,5,6\n");
  CHECK(result.exit_code == 0);
  const std::vector<std::string> lines = Lines(result.out);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "0,0");  // nothing learned before the first line
  CHECK(std::count(lines[2].begin(), lines[2].end(), ',') == 1);
  CHECK(result.err.find("rmse per target:") != std::string::npos);
}

TEST_CASE("learn --classes predicts classes and reports accuracy and confusion", "[app][classes]") {
  std::string csv;
  for (int t = 0; t < 400; ++t) {
    const double x = std::sin(0.37 * t), y = std::cos(0.91 * t);
    csv += std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(x > 0 ? (y > 0 ? 0 : 1) : 2) + "\n";
  }
  const RunResult result = RunApp("learn --classes=3 --predictions=- --features=128 --gamma=1", csv);
  CHECK(result.exit_code == 0);
  const std::vector<std::string> lines = Lines(result.out);
  REQUIRE(lines.size() == 400);
  for (const std::string& line : lines) CHECK((line == "0" || line == "1" || line == "2"));
  const size_t at = result.err.find("progressive validation: accuracy ");
  REQUIRE(at != std::string::npos);
  CHECK(std::stod(result.err.substr(at + 33)) > 0.8);
  CHECK(result.err.find("confusion counts (row: true class, column: predicted class):") !=
        std::string::npos);
}

TEST_CASE("learn --classes rejects labels outside the classes", "[app][classes][errors]") {
  const RunResult result = RunApp("learn --classes=3 --features=16", "1,2,0\n1,2,3\n1,2,1.5\n1,2,2\n");
  CHECK(result.exit_code == 0);
  CHECK(result.err.find("line 2: class label 3 is not an integer in [0, 3) (--classes) (skipped)") !=
        std::string::npos);
  CHECK(result.err.find("line 3: class label 1.5 is not an integer in [0, 3) (--classes) (skipped)") !=
        std::string::npos);
  CHECK(result.err.find("2 learned, 0 predicted only, 2 rejected") != std::string::npos);
}

TEST_CASE("learn --block gives the same predictions as one at a time", "[app][block]") {
  const RunResult single = RunApp("learn --predictions=- --quiet --features=32", SmoothCsv(300));
  const RunResult blocked = RunApp("learn --predictions=- --quiet --features=32 --block=16", SmoothCsv(300));
  REQUIRE(blocked.exit_code == 0);
  const std::vector<std::string> a = Lines(single.out), b = Lines(blocked.out);
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) CHECK(std::stod(b[i]) == Approx(std::stod(a[i])).margin(1e-9));
}

TEST_CASE("learn --variance writes the predictive variance as a second column", "[app][variance]") {
  const RunResult result = RunApp("learn --predictions=- --quiet --features=32 --variance", SmoothCsv(100));
  CHECK(result.exit_code == 0);
  const std::vector<std::string> lines = Lines(result.out);
  REQUIRE(lines.size() == 100);
  const std::string& last = lines.back();
  REQUIRE(last.find(',') != std::string::npos);
  CHECK(std::stod(last.substr(last.find(',') + 1)) > 0);
  // Before anything is learned the noise, and so the variance, is unknown.
  CHECK(lines.front().substr(lines.front().find(',')) == ",nan");
  CHECK(RunApp("learn --variance --block=4", "").exit_code == 2);
}

TEST_CASE("learn takes other kernels, ARD lengthscales and gamma=auto", "[app][kernels]") {
  for (const char* kernel : {"laplacian", "cauchy", "matern12", "matern32", "matern52"}) {
    const RunResult result = RunApp(std::string("learn --quiet --predictions=- --features=32 --kernel=") + kernel,
                                    SmoothCsv(50));
    CHECK(result.exit_code == 0);
    CHECK(Lines(result.out).size() == 50);
  }
  const RunResult ard = RunApp("learn --quiet --predictions=- --features=32 --lengthscales=0.5,2", SmoothCsv(50));
  CHECK(ard.exit_code == 0);
  const RunResult automatic = RunApp("learn --predictions=- --features=32 --gamma=auto", SmoothCsv(300));
  CHECK(automatic.exit_code == 0);
  CHECK(Lines(automatic.out).size() == 300);
  CHECK(automatic.err.find("tuned on the first 256 labelled lines by leave-one-out: kernel gaussian, "
                           "gamma ") != std::string::npos);
  // --kernel=auto chooses among all six, and --tune_report shows each one's table.
  const RunResult kernel = RunApp("learn --features=32 --kernel=auto --tune_report", SmoothCsv(300));
  CHECK(kernel.exit_code == 0);
  for (const char* name : {"gaussian", "laplacian", "cauchy", "matern12", "matern32", "matern52"}) {
    CHECK(kernel.err.find(std::string("leave-one-out rmse, kernel ") + name + " (* = chosen)") !=
          std::string::npos);
  }
  // One "(* = chosen)" per table, and one chosen grid point in all.
  CHECK(std::count(kernel.err.begin(), kernel.err.end(), '*') == 6 + 1);
  CHECK(RunApp("learn --kernel=auto --sampler=orthogonal", "1,2,3\n").exit_code == 2);
}

TEST_CASE("Kernel flag errors are usage errors", "[app][kernels][errors]") {
  const RunResult kernel = RunApp("learn --kernel=rbf", "1,2,3\n");
  CHECK(kernel.exit_code == 2);
  CHECK(kernel.err.find("unknown kernel 'rbf'") != std::string::npos);
  const RunResult lengthscales = RunApp("learn --lengthscales=1,2,3", "1,2,3\n");
  CHECK(lengthscales.exit_code == 2);
  CHECK(lengthscales.err.find("--lengthscales has 3 values, but the input has 2") != std::string::npos);
  const RunResult gamma = RunApp("learn --gamma=wide", "1,2,3\n");
  CHECK(gamma.exit_code == 2);
  CHECK(gamma.err.find("--gamma=wide: expected a number or auto") != std::string::npos);
  // A window too short to choose from falls back to the documented settings, and says so.
  const RunResult too_few = RunApp("learn --gamma=auto --predictions=-", "1,2,3\n");
  CHECK(too_few.exit_code == 0);
  CHECK(too_few.err.find("automatic settings: tuning: needs at least 2 labelled rows, got 1; using "
                         "kernel gaussian, gamma 0.25, ridge 0.01") != std::string::npos);
  CHECK(Lines(too_few.out) == std::vector<std::string>{"0"});
  const RunResult constant = RunApp("learn --quiet", "1,2,3\n1,2,4\n1,2,5\n");
  CHECK(constant.exit_code == 0);
  CHECK(constant.err.find("the median squared distance of the warm-up inputs is zero; using kernel") !=
        std::string::npos);
}

TEST_CASE("learn reads libsvm, dense and other delimiters, and ignores columns", "[app][formats]") {
  const RunResult libsvm = RunApp("learn --format=libsvm --dim=3 --predictions=- --quiet --features=16",
                                  "1 1:0.5 3:2\n-1 2:1\n3:1\n2 7:1\n");
  CHECK(libsvm.exit_code == 0);
  CHECK(Lines(libsvm.out).size() == 4);
  const RunResult dense = RunApp("learn --format=dense --predictions=- --quiet --features=16",
                                 "1  2\t3\n  4 5 6\n");
  CHECK(dense.exit_code == 0);
  CHECK(Lines(dense.out).size() == 2);
  const RunResult semicolon = RunApp("learn '--delimiter=;' --predictions=- --quiet --features=16",
                                     "1;2;3\n4;5;6\n");
  CHECK(semicolon.exit_code == 0);
  CHECK(Lines(semicolon.out).size() == 2);
  const RunResult ignored = RunApp("learn --header --ignore=id --target=y --predictions=- --features=16",
                                   "id,a,y\nx17,1,2\nx18,2,3\n");
  CHECK(ignored.exit_code == 0);
  CHECK(ignored.err.find("2 learned, 0 predicted only, 0 rejected") != std::string::npos);
}

TEST_CASE("Format errors: usage and lines", "[app][formats][errors]") {
  const RunResult inferred = RunApp("learn --format=libsvm --predictions=- --features=16", "1 1:1\n-1 4:2\n");
  CHECK(inferred.exit_code == 0);
  CHECK(inferred.err.find("libsvm dimension inferred: 4") != std::string::npos);
  CHECK(Lines(inferred.out).size() == 2);
  const RunResult no_index = RunApp("learn --format=libsvm", "1\n2\n");
  CHECK(no_index.exit_code == 3);
  CHECK(no_index.err.find("no feature index in the first 2 lines to infer --dim from") != std::string::npos);
  const RunResult serve = RunApp("serve --format=libsvm", "");
  CHECK(serve.exit_code == 2);
  CHECK(serve.err.find("--format=libsvm needs --dim=N (the number of inputs)") != std::string::npos);
  const RunResult beyond = RunApp("learn --format=libsvm --dim=2 --features=16", "1 1:1\n1 3:1\n");
  CHECK(beyond.exit_code == 0);
  CHECK(beyond.err.find("line 2: token 2: index 3 is outside 1..2 (--dim) (skipped)") != std::string::npos);
  CHECK(RunApp("learn --format=xml", "").exit_code == 2);
  CHECK(RunApp("learn --delimiter=ab", "").exit_code == 2);
}


// The hardening of issue 13: what a new user's mistakes and hostile input do.
namespace hardening {

// A 3-class stream of 2 inputs and the class, with a header.
std::string ClassCsv(int lines) {
  std::string csv = "x,y,label\n";
  for (int t = 0; t < lines; ++t) {
    const double x = std::sin(0.37 * t), y = std::cos(0.91 * t);
    csv += std::to_string(x) + "," + std::to_string(y) + "," +
           std::to_string(x > 0 ? (y > 0 ? 0 : 1) : 2) + "\n";
  }
  return csv;
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
  CHECK(renamed.err.find("the header (a, b, c) is not the one the model learned with (x, y, label)") !=
        std::string::npos);
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

TEST_CASE("A model nobody can afford is refused before allocating", "[app][errors][memory]") {
  const auto start = std::chrono::steady_clock::now();
  const RunResult huge = RunApp("learn --features=100000000", SmoothCsv(5));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK(huge.exit_code == 2);
  CHECK(huge.err.find("the model would take about ") != std::string::npos);
  CHECK(huge.err.find("more than the limit of ") != std::string::npos);
  const RunResult limited = RunApp("learn --features=2048 --max_model_memory_mb=16", SmoothCsv(5));
  CHECK(limited.exit_code == 2);
  CHECK(limited.err.find("more than the limit of 16 MiB (--max_model_memory_mb") != std::string::npos);
  CHECK(RunApp("learn --features=2048 --max_model_memory_mb=64 --quiet", SmoothCsv(5)).exit_code == 0);
}

TEST_CASE("A first line wider than --max_inputs is a bad line", "[app][errors][memory]") {
  std::string wide;
  for (int i = 0; i < 256'000; ++i) wide += "1,";
  const RunResult result = RunApp("learn --predictions=- --features=16", wide + "1\n" + SmoothCsv(20));
  CHECK(result.exit_code == 0);
  CHECK(result.err.find("line 1: 256001 columns: more inputs than --max_inputs=100000") !=
        std::string::npos);
  CHECK(result.err.find("20 learned, 0 predicted only, 1 rejected") != std::string::npos);
  CHECK(Lines(result.out).size() == 21);
}

TEST_CASE("A huge finite number is a bad line and never poisons the model",
          "[app][errors][nonfinite]") {
  TempDir dir;
  const std::string model = dir.File("m.rff");
  const std::string csv = SmoothCsv(30) + "1.5e308,2,3\n1,2,1e300\n" + SmoothCsv(30);
  for (const std::string block : {"1", "8"}) {
    INFO("--block=" << block);
    const RunResult result = RunApp("learn --predictions=- --features=32 --standardize=0 "
                                    "--gamma=0.3 --ridge=0.01 --block=" + block + " --save=" + model,
                                    csv);
    CHECK(result.exit_code == 0);
    CHECK(result.err.find("line 31: a number is too large for the model") != std::string::npos);
    CHECK(result.err.find("line 32: a number is too large for the model") != std::string::npos);
    CHECK(result.err.find("60 learned, 0 predicted only, 2 rejected") != std::string::npos);
    const std::vector<std::string> lines = Lines(result.out);
    REQUIRE(lines.size() == 62);
    CHECK(lines[30].empty());
    CHECK(lines[31].empty());
    for (size_t i = 32; i < lines.size(); ++i) CHECK(std::isfinite(std::stod(lines[i])));
    const RunResult exported = RunApp("export --load=" + model, "");
    CHECK(exported.exit_code == 0);
    CHECK(exported.out.find("nan") == std::string::npos);
    CHECK(exported.out.find("inf") == std::string::npos);
  }
  // In the standardization window: that line is named, the rest learned.
  const RunResult window = RunApp("learn --standardize=10 --gamma=0.3 --ridge=0.01 --features=16",
                                  SmoothCsv(4) + "1e160,0,1\n" + SmoothCsv(20));
  CHECK(window.exit_code == 0);
  CHECK(window.err.find("line 5: an input is too large to standardize") != std::string::npos);
  CHECK(window.err.find("24 learned, 0 predicted only, 1 rejected") != std::string::npos);
  // float32: a target beyond its range.
  const RunResult single = RunApp("learn --precision=float32 --features=16 --standardize=0 "
                                  "--gamma=0.3 --ridge=0.01", "1,2,3\n1,2,1e39\n1,2,3\n");
  // With the defaults, the same lines in the warm-up window: left out of the
  // tuning, refused by the model.
  const RunResult defaults = RunApp("learn --features=32", csv);
  CHECK(defaults.err.find("line 31: an input is too large to standardize") != std::string::npos);
  CHECK(defaults.err.find("line 32: a number is too large for the model") != std::string::npos);
  CHECK(defaults.err.find("tuned on the first 60 labelled lines") != std::string::npos);
  CHECK(single.err.find("line 2: a number is too large for the model") != std::string::npos);
  CHECK(single.err.find("2 learned, 0 predicted only, 1 rejected") != std::string::npos);
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

TEST_CASE("Input a new user meets on day one gets a helpful message", "[app][errors][formats]") {
  SECTION("a UTF-8 byte order mark") {
    const RunResult result = RunApp("learn --header --target=c --quiet", "\xEF\xBB\xBF" "a,b,c\n1,2,3\n");
    CHECK(result.exit_code == 0);
  }
  SECTION("a tab-separated file") {
    const RunResult result = RunApp("learn", "1\t2\t3\n");
    CHECK(result.exit_code == 3);
    CHECK(result.err.find("need at least 2 columns (inputs and a target), got 1 with delimiter ','; "
                          "the line has 'tab' characters: try --delimiter=tab (or --format=dense)") !=
          std::string::npos);
  }
  SECTION("a semicolon-separated file") {
    CHECK(RunApp("learn", "1;2;3\n").err.find("try --delimiter=';'") != std::string::npos);
  }
  SECTION("a target name not in the header") {
    const RunResult result = RunApp("learn --header --target=price", "a,b,medv\n1,2,3\n");
    CHECK(result.exit_code == 2);
    CHECK(result.err.find("--target=price: no such column; the header has a, b, medv") !=
          std::string::npos);
  }
  SECTION("--ignore names itself") {
    const RunResult result = RunApp("learn --header --ignore=foo", "a,b,c\n1,2,3\n");
    CHECK(result.exit_code == 2);
    CHECK(result.err.find("--ignore=foo: no such column") != std::string::npos);
  }
  SECTION("duplicate column names") {
    const RunResult warned = RunApp("learn --header --quiet", "a,a,y\n1,2,3\n");
    CHECK(warned.exit_code == 0);
    CHECK(warned.err.find("warning: the header names more than one column 'a'") != std::string::npos);
    const RunResult ambiguous = RunApp("learn --header --target=a", "a,a,y\n1,2,3\n");
    CHECK(ambiguous.exit_code == 2);
    CHECK(ambiguous.err.find("the header names more than one column 'a'; give the column's 0-based "
                             "index instead") != std::string::npos);
  }
}

TEST_CASE("Closed pipes end quietly; a full disk is named", "[app][errors][pipes]") {
  TempDir dir;
  const std::string app = RFFSTREAM_APP_PATH;
  const std::string err = dir.File("err");
  const std::string model = dir.File("m.rff");
  const std::string command = app + " generate --samples=200000 | " + app +
                              " learn --features=16 --predictions=- --save=" + model +
                              " 2> " + err + " | head -n 1 > /dev/null; echo ${PIPESTATUS[1]} > " +
                              dir.File("status");
  REQUIRE(std::system(("bash -c '" + command + "'").c_str()) == 0);
  CHECK(rffstream::testing::ReadText(dir.File("status")) == "0\n");
  CHECK(rffstream::testing::ReadText(err).find("Broken pipe") == std::string::npos);
  CHECK(std::filesystem::exists(model));  // still saved what it learned
  REQUIRE(std::system((app + " generate --samples=1000 > /dev/full 2> " + err).c_str()) != 0);
  CHECK(rffstream::testing::ReadText(err) ==
        "rffstream generate: cannot write to standard output: No space left on device\n");
}

}  // namespace hardening

}  // namespace
