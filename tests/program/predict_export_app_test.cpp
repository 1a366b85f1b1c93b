// End-to-end tests of `rffstream predict`, `export` and the --simd flag every command takes: the built binary, run by the
// shell with real files for standard input, output and error.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/app_process.h"

namespace {

using namespace rffstream::testing;

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
  // A run that answered nothing is no success.
  for (const std::string& nothing : {std::string(), std::string("x,y\n1,2,3,4\n")}) {
    const RunResult result = RunApp("predict --quiet --load=" + model, nothing);
    CHECK(result.exit_code == 3);
    CHECK(result.err.find("no line was answered") != std::string::npos);
  }
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
  // Standard output appended to the checkpoint would destroy it.
  const std::uintmax_t size = std::filesystem::file_size(model);
  const int status = std::system((std::string(RFFSTREAM_APP_PATH) + " export --load=" + model +
                                  " >> " + model + " 2> /dev/null").c_str());
  CHECK(WEXITSTATUS(status) == 2);
  CHECK(std::filesystem::file_size(model) == size);
}

TEST_CASE("The --simd flag lists the kernels and forces one", "[app][simd]") {
  const RunResult list = RunApp("--simd=list", "");
  CHECK(list.exit_code == 0);
  CHECK(list.out.find("scalar") != std::string::npos);
  CHECK(list.out.find(" *\n") != std::string::npos);  // the chosen one is marked
  // Every kernel the CPU has gives the same predictions to float64's rounding.
  const std::string learn = "learn --precision=float64 --predictions=- --quiet";
  const RunResult best = RunApp(learn, SmoothCsv(300));
  const std::vector<std::string> reference = Lines(best.out);
  REQUIRE(reference.size() == 300);
  for (const std::string& listed : Lines(list.out)) {
    const std::string kernel = listed.substr(0, listed.find(' '));
    INFO("--simd=" << kernel);
    const RunResult forced = RunApp("--simd=" + kernel + " " + learn, SmoothCsv(300));
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

}  // namespace
