// `mpirun -np N rffstream learn`, really started (Open MPI on loopback, every
// run under a timeout): the merged model against one process that learned
// the same lines, shares dealt from one file or a file per rank, uneven and
// empty shares, merges during the run, and ranks that fail (the width and
// the ridge chosen again at the merges: mpi_follow_test.cpp).
#include <catch2/catch.hpp>
#include <fstream>
#include <string>
#include <vector>

#include "tests/mpi_process.h"

namespace {

using namespace rffstream::testing;

// The merges are exact: in float64 the ranks end at one process's model to
// 1e-9, which these tests check. float32, the default, rounds differently
// as its sums arrive in another order (its own test case).
const std::string kLearn = "learn --precision=float64 ";

TEST_CASE("mpirun: N ranks end at the model one process learns from the same lines",
          "[app][mpi]") {
  TempDir dir;
  const std::string input = dir.File("stream.csv");
  std::ofstream(input) << "a,b,y\n" << SmoothCsv(1001);  // 1001: no N divides the rest evenly
  const std::string single = dir.File("single.rff");
  REQUIRE(RunApp(kLearn + "--quiet --header --features=64 --input=" + input + " --save=" + single, "")
              .exit_code == 0);
  for (int ranks = 1; ranks <= 4; ++ranks) {
    INFO(ranks << " ranks");
    const std::string merged = dir.File("merged" + std::to_string(ranks) + ".rff");
    const RunResult run = RunMpi(ranks, kLearn + "--header --features=64 --input=" + input +
                                            " --save=" + merged + " --predictions=" +
                                            dir.File("pred-%r.txt"));
    REQUIRE(run.exit_code == 0);
    CHECK(run.err.find("finished: 1002 lines read, 1001 learned") != std::string::npos);
    CHECK(run.err.find("mpirun: " + std::to_string(ranks) + " ranks, 1 merges") != std::string::npos);
    CheckSameModel(merged, single, /*header=*/true);
    // Every line is predicted once, by the rank it was dealt to.
    std::size_t predicted = 0;
    for (int rank = 0; rank < ranks; ++rank) {
      predicted += Lines(ReadText(dir.File("pred-" + std::to_string(rank) + ".txt"))).size();
    }
    CHECK(predicted == 1001);
  }
}

TEST_CASE("mpirun: merges during the run, a file per rank, an empty share", "[app][mpi]") {
  TempDir dir;
  const std::vector<std::string> lines = Lines(SmoothCsv(900));
  // Rank 0's file starts with the warm-up window; rank 2's is empty.
  std::string all, files[3];
  for (std::size_t t = 0; t < lines.size(); ++t) {
    all += lines[t] + "\n";
    files[t < 256 || t % 2 == 0 ? 0 : 1] += lines[t] + "\n";
  }
  for (int rank = 0; rank < 3; ++rank) {
    std::ofstream(dir.File("part-" + std::to_string(rank) + ".csv")) << files[rank];
  }
  const std::string single = dir.File("single.rff"), merged = dir.File("merged.rff");
  REQUIRE(RunApp(kLearn + "--quiet --features=64 --save=" + single, all).exit_code == 0);
  const RunResult run = RunMpi(3, kLearn + "--features=64 --sync_every=100 --input=" +
                                      dir.File("part-%r.csv") + " --save=" + merged);
  REQUIRE(run.exit_code == 0);
  CHECK(run.err.find("finished: 900 lines read, 900 learned") != std::string::npos);
  CheckSameModel(merged, single);
  // Dealt from one file with merges every 50 samples a rank: the same model.
  const std::string input = dir.File("all.csv"), dealt = dir.File("dealt.rff");
  std::ofstream(input) << all;
  REQUIRE(RunMpi(2, kLearn + "--features=64 --sync_every=50 --input=" + input + " --save=" + dealt)
              .exit_code == 0);
  CheckSameModel(dealt, single);
}

TEST_CASE("mpirun --load: the ranks start from the model, its header and settings included",
          "[app][mpi]") {
  TempDir dir;
  const std::string base = dir.File("base.rff"), input = dir.File("rest.csv");
  REQUIRE(RunApp(kLearn + "--quiet --header --features=64 --save=" + base,
                 "a,b,y\n" + SmoothCsv(300)).exit_code == 0);
  std::ofstream(input) << "a,b,y\n" << SmoothCsv(500);
  // No --header: the model's task says there is one.
  const std::string single = dir.File("single.rff"), merged = dir.File("merged.rff");
  REQUIRE(RunApp(kLearn + "--quiet --load=" + base + " --input=" + input + " --save=" + single, "")
              .exit_code == 0);
  const RunResult run =
      RunMpi(3, kLearn + "--load=" + base + " --input=" + input + " --save=" + merged);
  REQUIRE(run.exit_code == 0);
  CheckSameModel(merged, single, /*header=*/true);
  // A loaded model with forgetting, read from files per rank, has no common
  // clock: refused.
  const std::string forgetting = dir.File("forgetting.rff");
  REQUIRE(RunApp(kLearn + "--quiet --header --forget=0.99 --features=64 --save=" + forgetting,
                 "a,b,y\n" + SmoothCsv(300)).exit_code == 0);
  std::ofstream(dir.File("part-0.csv")) << "a,b,y\n" << SmoothCsv(20);
  std::ofstream(dir.File("part-1.csv")) << "a,b,y\n" << SmoothCsv(20);
  const RunResult refused =
      RunMpi(2, kLearn + "--load=" + forgetting + " --input=" + dir.File("part-%r.csv"));
  CHECK(refused.exit_code != 0);
  CHECK(refused.err.find("the model has beta 0.99") != std::string::npos);
}

TEST_CASE("mpirun --forget: one global clock, the model of one process", "[app][mpi]") {
  // The closed form A_T = β^T λI + Σ_t β^(T-t) (z_t z_tᵀ + refresh terms) is
  // what one process's RLS holds; the ranks merge to it on the clock of the
  // lines' places in the file, with and without merges during the run.
  TempDir dir;
  const std::string input = dir.File("stream.csv");
  std::ofstream(input) << "a,b,y\n" << SmoothCsv(900);
  const std::string single = dir.File("single.rff");
  REQUIRE(RunApp(kLearn + "--quiet --header --features=64 --forget=0.99 --input=" + input +
                     " --save=" + single, "")
              .exit_code == 0);
  for (const std::string& flags : {std::string("-np 2"), std::string("-np 3 --sync_every=40")}) {
    INFO(flags);
    const std::string merged = dir.File("merged.rff");
    const std::size_t space = flags.find(' ', 4);
    const int ranks = std::stoi(flags.substr(4, space - 4));
    const std::string sync = space == std::string::npos ? "" : flags.substr(space);
    REQUIRE(RunMpi(ranks, kLearn + "--quiet --header --features=64 --forget=0.99" + sync +
                              " --input=" + input + " --save=" + merged)
                .exit_code == 0);
    CheckSameModel(merged, single, /*header=*/true);
  }
  // From a loaded model with forgetting: the new lines' clocks follow its samples.
  const std::string base = dir.File("base.rff"), rest = dir.File("rest.csv");
  const std::string single_loaded = dir.File("single-loaded.rff"), merged_loaded = dir.File("merged-loaded.rff");
  REQUIRE(RunApp(kLearn + "--quiet --header --features=64 --forget=0.99 --save=" + base,
                 "a,b,y\n" + SmoothCsv(300)).exit_code == 0);
  std::ofstream(rest) << "a,b,y\n" << SmoothCsv(400);
  REQUIRE(RunApp(kLearn + "--quiet --load=" + base + " --input=" + rest + " --save=" + single_loaded, "")
              .exit_code == 0);
  REQUIRE(RunMpi(3, kLearn + "--quiet --load=" + base + " --sync_every=30 --input=" + rest +
                        " --save=" + merged_loaded)
              .exit_code == 0);
  CheckSameModel(merged_loaded, single_loaded, /*header=*/true);
}

TEST_CASE("mpirun, float32 (the default): the ranks end at one process's model to its digits",
          "[app][mpi][float32]") {
  TempDir dir;
  const std::string input = dir.File("stream.csv");
  std::ofstream(input) << SmoothCsv(2001);
  const std::string single = dir.File("single.rff");
  REQUIRE(RunApp("learn --quiet --features=64 --input=" + input + " --save=" + single, "")
              .exit_code == 0);
  for (const std::string& sync : {std::string(), std::string(" --sync_every=100")}) {
    INFO(sync);
    const std::string merged = dir.File("merged.rff");
    const RunResult run =
        RunMpi(2, "learn --features=64" + sync + " --input=" + input + " --save=" + merged);
    REQUIRE(run.exit_code == 0);
    CHECK(run.err.find("2001 learned") != std::string::npos);
    // The factor holds A's square root: float32's 24 bits give a
    // prediction about 10⁻⁶ relative (10⁻⁷ absolute near zero, the
    // predictions being of order 1); 10⁻⁴ is the bound kept.
    CheckSameModel(merged, single, /*header=*/false, /*relative=*/1e-4, /*margin=*/1e-4);
  }
}

TEST_CASE("mpirun: the saved model's targets' range is every rank's", "[app][mpi][clip]") {
  TempDir dir;
  // Rank 1's targets are rank 0's raised by 10.
  std::string raised;
  for (const std::string& line : Lines(SmoothCsv(400))) {
    const std::size_t comma = line.rfind(',');
    raised += line.substr(0, comma + 1) + std::to_string(std::stod(line.substr(comma + 1)) + 10) + "\n";
  }
  std::ofstream(dir.File("part-0.csv")) << SmoothCsv(400);
  std::ofstream(dir.File("part-1.csv")) << raised;
  const std::string merged = dir.File("merged.rff");
  REQUIRE(RunMpi(2, "learn --quiet --features=32 --input=" + dir.File("part-%r.csv") +
                        " --save=" + merged)
              .exit_code == 0);
  const RunResult exported = RunApp("export --load=" + merged, "");
  REQUIRE(exported.exit_code == 0);
  const std::size_t at = exported.out.find("\"target_range\": [[");
  REQUIRE(at != std::string::npos);
  const std::string bounds = exported.out.substr(at + 18);
  CHECK(std::stod(bounds) < 0);  // rank 0's lowest, sin t (1 + cos 0.07 t) < 0
  CHECK(std::stod(bounds.substr(bounds.find(',') + 1)) > 10);  // rank 1's highest
}

TEST_CASE("mpirun --classes: one summary with every rank's confusion counts", "[app][mpi]") {
  TempDir dir;
  const std::string input = dir.File("classes.csv");
  std::ofstream(input) << ClassCsv(700);
  const RunResult single = RunApp("learn --features=64 --classes=3 --header --input=" + input, "");
  const RunResult run = RunMpi(2, "learn --features=64 --classes=3 --header --input=" + input);
  REQUIRE(single.exit_code == 0);
  REQUIRE(run.exit_code == 0);
  CHECK(run.err.find("finished: 701 lines read, 700 learned") != std::string::npos);
  // Every line predicted once: the confusion counts add up to 700 lines.
  const size_t at = run.err.find("progressive validation: accuracy ");
  REQUIRE(at != std::string::npos);
  CHECK(run.err.find(" of 700)", at) != std::string::npos);
  CHECK(std::stod(run.err.substr(at + 33)) > 0.8);
}

TEST_CASE("mpirun: a rank that fails stops every rank, with its reason", "[app][mpi][errors]") {
  TempDir dir;
  const std::string input = dir.File("stream.csv");
  std::ofstream(input) << SmoothCsv(400);
  std::ofstream(dir.File("part-0.csv")) << SmoothCsv(400);
  const RunResult missing = RunMpi(2, "learn --quiet --input=" + dir.File("part-%r.csv"));
  CHECK(missing.exit_code != 0);
  CHECK(missing.err.find("cannot open input file " + dir.File("part-1.csv")) != std::string::npos);
  // A rank started with other model flags (mpirun's MPMD form) is named.
  const RunResult mismatch =
      RunShell(kMpirun + " -np 1 " + kApp + " learn --quiet --features=64 --input=" + input +
               " : -np 1 " + kApp + " learn --quiet --features=128 --input=" + input);
  CHECK(mismatch.exit_code != 0);
  CHECK(mismatch.err.find("--features=128 (the model has 64)") != std::string::npos);
  const RunResult forgetting = RunMpi(2, "learn --forget=0.99 --input=" + dir.File("part-%r.csv"));
  CHECK(forgetting.exit_code == 2);
  CHECK(forgetting.err.find("files per rank (%r) give the lines no common order") !=
        std::string::npos);
  const RunResult shared_predictions =
      RunMpi(2, "learn --input=" + input + " --predictions=" + dir.File("p.txt"));
  CHECK(shared_predictions.exit_code == 2);
  CHECK(shared_predictions.err.find("put %r (the rank) in --predictions") != std::string::npos);
}

TEST_CASE("mpirun: predict, serve and the other commands refuse to run once per rank",
          "[app][mpi][errors]") {
  TempDir dir;
  const std::string input = dir.File("stream.csv"), model = dir.File("model.rff");
  std::ofstream(input) << SmoothCsv(300);
  REQUIRE(RunApp("learn --quiet --input=" + input + " --save=" + model, "").exit_code == 0);
  const RunResult predicted =
      RunMpi(2, "predict --load=" + model + " --input=" + input + " --predictions=" + dir.File("p"));
  CHECK(predicted.exit_code == 2);
  CHECK(predicted.err.find("rffstream predict: started by mpirun with 2 processes") !=
        std::string::npos);
  CHECK_FALSE(std::ifstream(dir.File("p")).good());  // nothing written, not even once
  const RunResult exported = RunMpi(2, "export --load=" + model);
  CHECK(exported.exit_code == 2);
  CHECK(exported.out.empty());
  // One rank is one process: it just runs.
  CHECK(RunMpi(1, "predict --quiet --load=" + model + " --input=" + input).exit_code == 0);
}

}  // namespace
