// `mpirun -np N rffstream learn` with --gamma=auto and --ridge=auto, really
// started: the width and the ridge are chosen again at the merges, on every
// rank's lines, and the model ends at one process's given them from the
// start; ranks that would choose differently are refused by name.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "tests/mpi_process.h"

namespace {

using namespace rffstream::testing;

// float64: the merges are exact (mpi_learn_test.cpp).
const std::string kLearn = "learn --precision=float64 ";

// The summary's last "ridge ... re-chosen ... -> R": R ("" when none).
std::string LastRidgeChoice(const std::string& log) {
  const std::size_t at = log.find("ridge (--ridge=auto) re-chosen");
  if (at == std::string::npos) return "";
  const std::string line = log.substr(at, log.find('\n', at) - at);
  return line.substr(line.rfind("-> ") + 3);
}

TEST_CASE("mpirun, --gamma=auto and --ridge=auto: chosen again at the merges, on every rank's lines",
          "[app][mpi][ridge_follower][bandwidth_follower]") {
  // 3000 lines: choices fall due at 4 and 16 times the window's 256. Each
  // run chooses at its merges: the ridge on the merged sums, the width on
  // the lines every rank kept. The model then holds λ'I + Σ z zᵀ at the
  // chosen width exactly: the model of one process given γ' and λ' from
  // the start, however many choices the run made on the way and wherever.
  TempDir dir;
  const std::string input = dir.File("stream.csv");
  std::ofstream(input) << SmoothCsv(3000);
  std::string first_ridge, reference;
  for (const std::string& flags :
       {std::string("-np 1"), std::string("-np 2"), std::string("-np 3 --sync_every=250"),
        std::string("-np 2 --sync_every=250 --rank_model=merged")}) {
    INFO(flags);
    const std::size_t space = flags.find(' ', 4);
    const int ranks = std::stoi(flags.substr(4, space - 4));
    const std::string sync = space == std::string::npos ? "" : flags.substr(space);
    const std::string merged = dir.File("merged" + std::to_string(ranks) + ".rff");
    const RunResult run =
        RunMpi(ranks, kLearn + "--features=64" + sync + " --input=" + input + " --save=" + merged);
    REQUIRE(run.exit_code == 0);
    INFO(run.err);
    const std::string ridge = LastRidgeChoice(run.err);
    REQUIRE(!ridge.empty());
    CHECK(run.err.find("gamma (--gamma=auto) re-chosen") != std::string::npos);
    if (ranks == 1) {
      CHECK(run.err.find("line 3000 (3000 samples)") != std::string::npos);  // the one merge
      first_ridge = ridge;
      // The reference: one process given the chosen width and ridge from
      // the start (the same standardization and draws).
      const RunResult exported = RunApp("export --format=json --load=" + merged, "");
      REQUIRE(exported.exit_code == 0);
      const std::size_t gamma = exported.out.find("\"gamma\": ");
      REQUIRE(gamma != std::string::npos);
      reference = dir.File("reference.rff");
      REQUIRE(RunApp(kLearn + "--quiet --features=64 --gamma=" +
                         exported.out.substr(gamma + 9, exported.out.find(',', gamma) - gamma - 9) +
                         " --ridge=" + ridge + " --input=" + input + " --save=" + reference,
                     "")
                  .exit_code == 0);
    }
    CHECK(ridge == first_ridge);
    // Within 1e-9 of the largest prediction: at λ' = 1e-6, A's condition
    // number, about n / λ', makes sums added in another order differ more
    // than that in the smallest predictions' relative digits.
    const std::vector<double> these = Predictions(merged, Queries(false)),
                              expected = Predictions(reference, Queries(false));
    REQUIRE(these.size() == expected.size());
    double largest = 0, difference = 0;
    for (std::size_t i = 0; i < these.size(); ++i) {
      largest = std::max(largest, std::abs(expected[i]));
      difference = std::max(difference, std::abs(these[i] - expected[i]));
    }
    CHECK(difference <= 1e-9 * largest);
  }
  // A rank launched with the window's ridge given (mpirun's MPMD form)
  // would send messages of another layout: refused by name, every rank
  // stopped.
  const RunResult mixed =
      RunShell(kMpirun + " -np 1 " + kApp + " learn --features=64 --input=" + input + " : -np 1 " +
               kApp + " learn --features=64 --ridge=0.0001 --input=" + input);
  CHECK(mixed.exit_code == 2);
  CHECK(mixed.err.find("every rank chooses the ridge (--ridge=auto) or none does") !=
        std::string::npos);
}

}  // namespace
