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
  const std::string flags = " --features=32 --gamma=1 --ridge=0.01 --input=" + input;
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
  // Two ranks, merging during the run: each sees the change in its own
  // errors, and after it the model tracks the new stream.
  const RunResult two = RunMpi(2, "learn" + flags + " --sync_every=500 --quiet --save=" + merged);
  const RunResult fixed = RunMpi(2, "learn --forget=1" + flags + " --predictions=" +
                                        dir.File("fixed-%r.txt"));
  const RunResult tracked = RunMpi(2, "learn" + flags + " --predictions=" +
                                          dir.File("tracked-%r.txt"));
  REQUIRE(two.exit_code == 0);
  REQUIRE(fixed.exit_code == 0);
  REQUIRE(tracked.exit_code == 0);
  CHECK(tracked.err.find("1 merge restarted the shared model; rank 0: 1 change (line 40") !=
        std::string::npos);
  CHECK(tracked.err.find(", rank 1: 1 change (line 40") != std::string::npos);
  CHECK(fixed.err.find("drift") == std::string::npos);
  // Rank 1's lines after the change (it holds every other line after the window).
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
  // A merged model that restarted no longer holds the model it started from.
  const std::string base = dir.File("base.rff"), rest = dir.File("rest.csv");
  std::string first_half, second_half;
  for (std::size_t t = 0; t < lines.size(); ++t) (t < 3000 ? first_half : second_half) += lines[t] + "\n";
  std::ofstream(rest) << second_half;
  REQUIRE(RunApp("learn --quiet --features=32 --gamma=1 --ridge=0.01 --save=" + base, first_half)
              .exit_code == 0);
  REQUIRE(RunMpi(2, "learn --quiet --load=" + base + " --input=" + rest + " --save=" + merged)
              .exit_code == 0);
  const RunResult merge = RunApp("merge --save=" + dir.File("m.rff") + " --base=" + base + " " +
                                 merged, "");
  CHECK(merge.exit_code == 1);
  CHECK(merge.err.find("forgot to its prior on drift after the base") != std::string::npos);
}

}  // namespace
