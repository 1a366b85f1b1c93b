// End-to-end tests of `rffstream learn`: predictions, summaries, bad lines, usage errors, pipes: the built binary, run by the
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

TEST_CASE("learn writes one prediction per line and a summary", "[app]") {
  const RunResult result = RunApp("learn --predictions=- --features=64", SmoothCsv(300));
  CHECK(result.exit_code == 0);
  CHECK(Lines(result.out).size() == 300);
  CHECK(result.err.find("finished: 300 lines read, 300 learned, 0 predicted only, 0 rejected") !=
        std::string::npos);
  CHECK(result.err.find("progressive validation: rmse") != std::string::npos);
}

TEST_CASE("learn skips bad lines with their line numbers and keeps the rest", "[app][errors]") {
  const std::string input = "1,2,3\n1,2\n4,5,6\nx,1,2\n7,8,inf\n1,2,3,4\n0.5,0.5,1\n";
  const RunResult result = RunApp("learn --predictions=- --features=16", input);
  CHECK(result.exit_code == 0);
  const std::vector<std::string> lines = Lines(result.out);
  REQUIRE(lines.size() == 7);
  CHECK(lines[1].empty());  // rejected lines keep their place as empty lines
  CHECK(lines[3].empty());
  CHECK_FALSE(lines[6].empty());
  CHECK(result.err.find("stdin: line 2: expected 3 fields, got 2 (skipped)") != std::string::npos);
  CHECK(result.err.find("stdin: line 4: column 0: 'x' is not a number (a text column? declare it categorical) (skipped)") !=
        std::string::npos);
  CHECK(result.err.find("stdin: line 5: column 2: 'inf' is infinite (skipped)") !=
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
                           ": column 1: 'oops' is not a number (a text column? declare it categorical) (skipped)") != std::string::npos);
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

TEST_CASE("learn --strict stops at the first bad line with exit code 3, and keeps the lines before",
          "[app][errors]") {
  TempDir dir;
  const std::string model = dir.File("m.rff");
  const RunResult result =
      RunApp("learn --strict --features=16 --save=" + model, "1,2,3\n4,oops,6\n7,8,9\n");
  CHECK(result.exit_code == 3);
  CHECK(result.err.find("stdin: line 2: column 1: 'oops' is not a number (a text column? declare it categorical)") != std::string::npos);
  // The line before it was learned, summed up and saved.
  CHECK(result.err.find("finished: 2 lines read, 1 learned") != std::string::npos);
  const RunResult exported = RunApp("export --load=" + model, "");
  CHECK(exported.out.find("\"samples_learned\": 1") != std::string::npos);
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
    // The reason names the column to look at: an input, then the target.
    CHECK(result.err.find("line 31: a number is too large for the model (its features, prediction "
                          "or update would not be finite): its largest number is in column 0") !=
          std::string::npos);
    CHECK(result.err.find("line 32: a number is too large for the model (its features, prediction "
                          "or update would not be finite): its largest number is in column 2") !=
          std::string::npos);
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
  CHECK(window.err.find("line 5: an input is too large to standardize (its square overflows): its "
                        "largest number is in column 0") != std::string::npos);
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

TEST_CASE("Closed pipes end quietly, a full disk is named", "[app][errors][pipes]") {
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

}  // namespace
