// End-to-end tests of `rffstream learn` with model flags: targets, classes, blocks, variance,
// kernels, samplers, threads (input formats: input_formats_app_test.cpp). The built binary,
// run by the shell with real files for standard input, output and error.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/app_process.h"
#include "tests/sanitized.h"

namespace {

using namespace rffstream::testing;

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

TEST_CASE("learn --loss=hinge classifies, counts its updates, and its model is used as saved",
          "[app][classes][hinge]") {
  TempDir dir;
  const std::string model = dir.File("hinge.rff");
  const RunResult learned = RunApp(
      "learn --header --classes=3 --loss=hinge --features=64 --predictions=- --save=" + model,
      ClassCsv(600));
  REQUIRE(learned.exit_code == 0);
  const size_t at = learned.err.find("progressive validation: accuracy ");
  REQUIRE(at != std::string::npos);
  CHECK(std::stod(learned.err.substr(at + 33)) > 0.8);
  CHECK(learned.err.find("hinge loss: ") != std::string::npos);
  CHECK(learned.err.find("updates (outputs inside their margin) over 600 samples learned") !=
        std::string::npos);
  // predict, learn --load and export take the loss from the model.
  const RunResult predicted = RunApp("predict --load=" + model, ClassCsv(50));
  CHECK(predicted.exit_code == 0);
  CHECK(predicted.err.find("evaluation: accuracy ") != std::string::npos);
  const RunResult resumed = RunApp("learn --loss=hinge --load=" + model, ClassCsv(20));
  CHECK(resumed.exit_code == 0);
  CHECK(resumed.err.find("over 620 samples learned") != std::string::npos);
  const RunResult other_loss = RunApp("learn --loss=squared --load=" + model, ClassCsv(10));
  CHECK(other_loss.exit_code == 2);
  CHECK(other_loss.err.find("--loss=squared (the model has hinge)") != std::string::npos);
  const RunResult exported = RunApp("export --load=" + model, "");
  CHECK(exported.exit_code == 0);
  CHECK(exported.out.find("\"loss\": \"hinge\"") != std::string::npos);
  // The hinge loss is a classifier's; an unknown loss is a usage error.
  const RunResult regression = RunApp("learn --loss=hinge --features=16", SmoothCsv(10));
  CHECK(regression.exit_code == 2);
  CHECK(regression.err.find("--loss=hinge is a classifier's loss: give --classes=K (K >= 2)") !=
        std::string::npos);
  const RunResult unknown = RunApp("learn --loss=svm --classes=3 --features=16", ClassCsv(10));
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("unknown loss 'svm' (expected squared or hinge)") != std::string::npos);
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
    CHECK(kernel.err.find(std::string("leave-one-out rmse, kernel ") + name +
                          ", 32 features (* = chosen: ") != std::string::npos);
  }
  // One "(* = chosen: ...)" per table, and one chosen grid point in all.
  CHECK(std::count(kernel.err.begin(), kernel.err.end(), '*') == 6 + 1);
  CHECK(RunApp("learn --kernel=auto --sampler=orthogonal", "1,2,3\n").exit_code == 2);
}

TEST_CASE("learn --sampler=leverage selects features on the warm-up window", "[app][leverage]") {
  TempDir dir;
  const std::string model = (dir.path() / "model.rff").string();
  const RunResult learned =
      RunApp("learn --predictions=- --features=64 --sampler=leverage --kernel=laplacian --save=" +
                 model,
             SmoothCsv(300));
  CHECK(learned.exit_code == 0);
  CHECK(Lines(learned.out).size() == 300);
  CHECK(learned.err.find("leverage features: 64 frequencies drawn from 512 candidates by their "
                         "ridge leverage on the warm-up window (") != std::string::npos);
  // The checkpoint keeps the selection: stopping after 280 lines and
  // resuming gives the last 20 answers of the run that never stopped.
  const std::vector<std::string> lines = Lines(SmoothCsv(300));
  std::string head, tail;
  for (std::size_t i = 0; i < lines.size(); ++i) (i < 280 ? head : tail) += lines[i] + "\n";
  const std::string first_part = (dir.path() / "first.rff").string();
  REQUIRE(RunApp("learn --quiet --features=64 --sampler=leverage --kernel=laplacian --save=" +
                     first_part,
                 head)
              .exit_code == 0);
  const RunResult resumed =
      RunApp("learn --quiet --predictions=- --sampler=leverage --load=" + first_part, tail);
  CHECK(resumed.exit_code == 0);
  const std::vector<std::string> all = Lines(learned.out);
  CHECK(Lines(resumed.out) == std::vector<std::string>(all.begin() + 280, all.end()));
  const RunResult conflict = RunApp("learn --sampler=iid --load=" + model, SmoothCsv(5));
  CHECK(conflict.exit_code == 2);
  CHECK(conflict.err.find("--sampler=iid (the model has leverage)") != std::string::npos);
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

TEST_CASE("Threads give the same predictions, checkpoints and summary as one thread",
          "[app][threads]") {
  // D = 600: past the size where threads are used by default, and cut
  // into parts that do not fall on SIMD vectors.
  // Shorter under the sanitizers: the same threads and parts, fewer lines.
  const int lines = kSanitized ? 300 : 900;
  const std::string input = SmoothCsv(lines);
  for (const std::string model : {"--features=600", "--features=600 --precision=float32",
                                  "--features=600 --block=64", "--features=600 --forget=0.999"}) {
    INFO(model);
    const RunResult one = RunApp("learn --predictions=- --threads=1 " + model, input);
    const RunResult two = RunApp("learn --predictions=- --threads=2 " + model, input);
    const RunResult automatic = RunApp("learn --predictions=- " + model, input);
    REQUIRE(one.exit_code == 0);
    REQUIRE(two.exit_code == 0);
    CHECK(two.out == one.out);
    CHECK(automatic.out == one.out);
    CHECK(Lines(two.err).size() == Lines(one.err).size());
  }
  // A checkpoint saved with threads continues with one, and the other way.
  TempDir dir;
  const std::string path = (dir.path() / "m.rff").string();
  const std::string first = SmoothCsv(lines * 2 / 3);  // the input's first two thirds
  REQUIRE(RunApp("learn --quiet --features=600 --threads=2 --save=" + path, first).exit_code == 0);
  const std::string rest = input.substr(first.size());
  const RunResult on_one = RunApp("learn --predictions=- --quiet --threads=1 --load=" + path, rest);
  const RunResult on_two = RunApp("learn --predictions=- --quiet --threads=2 --load=" + path, rest);
  CHECK(on_one.exit_code == 0);
  CHECK(on_two.out == on_one.out);
  CHECK_FALSE(on_one.out.empty());
  // Out of range.
  for (const std::string bad : {"--threads=-1", "--threads=100000"}) {
    const RunResult refused = RunApp("learn " + bad, input);
    CHECK(refused.exit_code == 2);
    CHECK(refused.err.find("--threads=") != std::string::npos);
  }
}

}  // namespace
