// --forget=auto under `mpirun`, really started: each rank watches its own
// errors, and a change that one sees restarts the shared model at the next
// merge (apps/commands/information_delta_sync.h).
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "tests/mpi_process.h"

namespace {

using namespace rffstream::testing;

TEST_CASE("mpirun --forget=auto: a change seen by a rank restarts the shared model",
          "[app][mpi][drift]") {
  TempDir dir;
  const std::string input = dir.File("switch.csv");
  std::ofstream(input) << SwitchingCsv(8000, 4000);
  const std::string flags = " --precision=float64 --features=32 --gamma=1 --ridge=0.01 --input=" + input;
  // One rank restarts where one process does, and the merge keeps just that.
  const std::string single = dir.File("single.rff"), merged = dir.File("merged.rff");
  const RunResult alone = RunApp("learn" + flags + " --predictions=" + dir.File("alone.txt") +
                                 " --save=" + single, "");
  const RunResult one = RunMpi(1, "learn" + flags + " --predictions=" + dir.File("one-%r.txt") +
                                      " --save=" + merged);
  REQUIRE(alone.exit_code == 0);
  REQUIRE(one.exit_code == 0);
  CHECK(alone.err.find("1 change detected: line 40") != std::string::npos);
  CHECK(one.err.find("drift (--forget=auto) on the ranks: 1 merge restarted the shared model; "
                     "rank 0: 1 change (line 40") != std::string::npos);
  CHECK(ReadText(dir.File("one-0.txt")) == ReadText(dir.File("alone.txt")));
  CheckSameModel(merged, single);
  // Two ranks: each sees the change in its own errors, and after it the
  // model tracks the new stream.
  const RunResult fixed = RunMpi(2, "learn --forget=1" + flags + " --predictions=" +
                                        dir.File("fixed-%r.txt"));
  const RunResult tracked = RunMpi(2, "learn" + flags + " --predictions=" +
                                          dir.File("tracked-%r.txt"));
  REQUIRE(fixed.exit_code == 0);
  REQUIRE(tracked.exit_code == 0);
  CHECK(tracked.err.find("1 merge restarted the shared model; rank 0: 1 change (line 40") !=
        std::string::npos);
  CHECK(tracked.err.find(", rank 1: 1 change (line 40") != std::string::npos);
  CHECK(fixed.err.find("drift") == std::string::npos);
  // Rank 1's last lines (after the 256 lines of rank 0's window, it holds
  // every other line).
  const std::vector<std::string> lines = Lines(SwitchingCsv(8000, 4000));
  const std::vector<std::string> a = Lines(ReadText(dir.File("tracked-1.txt"))),
                                  b = Lines(ReadText(dir.File("fixed-1.txt")));
  REQUIRE(a.size() == b.size());
  double tracked_error = 0, fixed_error = 0;
  for (std::size_t i = a.size() - 1500; i < a.size(); ++i) {
    const std::string& line = lines[256 + 2 * i + 1];
    const double target = std::stod(line.substr(line.rfind(',') + 1));
    tracked_error += std::pow(std::stod(a[i]) - target, 2);
    fixed_error += std::pow(std::stod(b[i]) - target, 2);
  }
  CHECK(tracked_error < 0.2 * fixed_error);
  // Merging every 50 lines a rank: a rank restarted by the other's change
  // starts its detectors over too (one restart, not one a rank), and the
  // merged model holds the new stream only.
  const std::string fixed_model = dir.File("fixed.rff");
  const RunResult often = RunMpi(2, "learn" + flags + " --sync_every=50 --save=" + merged);
  REQUIRE(RunMpi(2, "learn --quiet --forget=1" + flags + " --sync_every=50 --save=" + fixed_model)
              .exit_code == 0);
  REQUIRE(often.exit_code == 0);
  CHECK(often.err.find("1 merge restarted the shared model") != std::string::npos);
  std::string queries;
  std::vector<double> targets;
  for (int t = 0; t < 200; ++t) {
    const double a_input = std::sin(0.37 * t + 0.1), b_input = std::cos(0.23 * t + 0.2);
    queries += std::to_string(a_input) + "," + std::to_string(b_input) + "\n";
    targets.push_back(4.0 + 2.0 * b_input);  // the stream after its change
  }
  const std::vector<double> tracking = Predictions(merged, queries),
                            not_tracking = Predictions(fixed_model, queries);
  REQUIRE(tracking.size() == targets.size());
  REQUIRE(not_tracking.size() == targets.size());
  double merged_error = 0, fixed_merged_error = 0;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    merged_error += std::pow(tracking[i] - targets[i], 2) / targets.size();
    fixed_merged_error += std::pow(not_tracking[i] - targets[i], 2) / targets.size();
  }
  INFO("mean squared errors: tracking " << merged_error << ", not " << fixed_merged_error);
  CHECK(merged_error < 0.02);
  CHECK(merged_error < 0.05 * fixed_merged_error);
  // A merged model that restarted no longer holds the model it started from.
  const std::string base = dir.File("base.rff"), rest = dir.File("rest.csv");
  std::string first_half, second_half;
  for (std::size_t t = 0; t < lines.size(); ++t) (t < 3000 ? first_half : second_half) += lines[t] + "\n";
  std::ofstream(rest) << second_half;
  REQUIRE(RunApp("learn --quiet --precision=float64 --features=32 --gamma=1 --ridge=0.01 --save=" + base, first_half)
              .exit_code == 0);
  REQUIRE(RunMpi(2, "learn --quiet --load=" + base + " --input=" + rest + " --save=" + merged)
              .exit_code == 0);
  const RunResult merge = RunApp("merge --save=" + dir.File("m.rff") + " --base=" + base + " " +
                                 merged, "");
  CHECK(merge.exit_code == 1);
  CHECK(merge.err.find("forgot to its prior on drift after the base") != std::string::npos);
}

TEST_CASE("mpirun --forget=auto: ranks that read files of their own do not watch for changes",
          "[app][mpi][drift]") {
  // Each file its own regime: a merge brings the other's into each rank's
  // model, which its errors would take for a change at every merge.
  TempDir dir;
  const std::vector<std::string> lines = Lines(SwitchingCsv(8000, 4000));
  std::string old_regime, new_regime;
  for (std::size_t t = 0; t < lines.size(); ++t) (t < 4000 ? old_regime : new_regime) += lines[t] + "\n";
  std::ofstream(dir.File("part-0.csv")) << old_regime;
  std::ofstream(dir.File("part-1.csv")) << new_regime;
  const std::string flags = " --precision=float64 --features=32 --gamma=1 --ridge=0.01 --sync_every=200 --input=" +
                            dir.File("part-%r.csv");
  const std::string tracked = dir.File("auto.rff"), fixed = dir.File("fixed.rff");
  const RunResult run = RunMpi(2, "learn" + flags + " --save=" + tracked);
  REQUIRE(run.exit_code == 0);
  CHECK(run.err.find("drift") == std::string::npos);
  REQUIRE(RunMpi(2, "learn --quiet --forget=1" + flags + " --save=" + fixed).exit_code == 0);
  CheckSameModel(tracked, fixed);
}

}  // namespace
