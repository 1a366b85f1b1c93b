// `mpirun -np N rffstream learn --rank_model=merged`, really started: ranks
// that predict with the last merged model and only gather their lines end
// at one process's model, its noise estimate included; between merges each
// rank's predictions are the merged model's; what the mode cannot do is
// refused by name.
#include <catch2/catch.hpp>
#include <fstream>
#include <string>
#include <vector>

#include "tests/mpi_process.h"

namespace {

using namespace rffstream::testing;

// float64: the merges are exact, so the ranks meet one process to 1e-9.
const std::string kLearn =
    "learn --precision=float64 --features=64 --forget=1 --noclip_predictions --rank_model=merged ";

// Each query's prediction and predictive variance σ² (1 + zᵀPz): the variance
// carries the noise estimate, which the merges set from the targets' squares.
std::vector<double> PredictionsWithVariance(const std::string& model) {
  const RunResult predicted = RunApp("predict --quiet --variance --load=" + model, Queries(false));
  REQUIRE(predicted.exit_code == 0);
  std::vector<double> values;
  for (const std::string& line : Lines(predicted.out)) {
    const std::size_t comma = line.find(',');
    REQUIRE(comma != std::string::npos);
    values.push_back(std::stod(line.substr(0, comma)));
    values.push_back(std::stod(line.substr(comma + 1)));
  }
  return values;
}

TEST_CASE("mpirun --rank_model=merged: the ranks end at one process's model and noise estimate",
          "[app][mpi]") {
  TempDir dir;
  const std::string input = dir.File("stream.csv"), single = dir.File("single.rff");
  std::ofstream(input) << SmoothCsv(1001);
  REQUIRE(RunApp(kLearn + "--quiet --input=" + input + " --save=" + single, "").exit_code == 0);
  const std::vector<double> expected = PredictionsWithVariance(single);
  for (const int ranks : {2, 3}) {
    for (const std::string& block : {"1", "8"}) {
      INFO(ranks << " ranks, --block=" << block);
      const std::string merged = dir.File("merged.rff");
      const RunResult run = RunMpi(ranks, kLearn + "--sync_every=100 --block=" + block +
                                              " --input=" + input + " --save=" + merged);
      REQUIRE(run.exit_code == 0);
      CHECK(run.err.find("finished: 1001 lines read, 1001 learned") != std::string::npos);
      const std::vector<double> got = PredictionsWithVariance(merged);
      REQUIRE(got.size() == expected.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        CHECK(got[i] == Approx(expected[i]).epsilon(1e-9).margin(1e-12));
      }
    }
  }
}

TEST_CASE("mpirun --rank_model=merged: a rank predicts with the model of the last merge",
          "[app][mpi]") {
  TempDir dir;
  const std::vector<std::string> lines = Lines(SmoothCsv(700));
  std::string all, window;
  for (std::size_t t = 0; t < lines.size(); ++t) {
    all += lines[t] + "\n";
    if (t < 256) window += lines[t] + "\n";  // the warm-up window: rank 0's base
  }
  const std::string input = dir.File("stream.csv"), base = dir.File("base.rff");
  std::ofstream(input) << all;
  REQUIRE(RunApp(kLearn + "--quiet --save=" + base, window).exit_code == 0);
  // No merge before the end: every line rank 1 was dealt (256 + 2, + 4, ...)
  // is predicted with the base, which learns none of them.
  REQUIRE(RunMpi(2, kLearn + "--quiet --sync_every=0 --input=" + input + " --predictions=" +
                        dir.File("pred-%r.txt")).exit_code == 0);
  std::string dealt;
  for (std::size_t t = 257; t < lines.size(); t += 2) dealt += lines[t] + "\n";
  const RunResult from_base = RunApp("predict --quiet --noclip_predictions --load=" + base, dealt);
  REQUIRE(from_base.exit_code == 0);
  const std::vector<std::string> expected = Lines(from_base.out);
  const std::vector<std::string> got = Lines(ReadText(dir.File("pred-1.txt")));
  REQUIRE(got.size() == expected.size());
  REQUIRE(got.size() == 222);
  for (std::size_t i = 0; i < got.size(); ++i) {
    CHECK(std::stod(got[i]) == Approx(std::stod(expected[i])).epsilon(1e-12).margin(1e-14));
  }
  // A merge every 50 samples a rank: rank 1's lines 51 to 100 are predicted
  // with the first merge's model, which is one process's after the window
  // and the 100 lines dealt before it (256 + 100).
  REQUIRE(RunMpi(2, kLearn + "--quiet --sync_every=50 --input=" + input + " --predictions=" +
                        dir.File("merging-%r.txt")).exit_code == 0);
  const std::vector<std::string> merging = Lines(ReadText(dir.File("merging-1.txt")));
  REQUIRE(merging.size() == 222);
  std::string first_lines;
  for (std::size_t t = 0; t < 356; ++t) first_lines += lines[t] + "\n";
  const std::string first_merge = dir.File("first_merge.rff");
  REQUIRE(RunApp(kLearn + "--quiet --save=" + first_merge, first_lines).exit_code == 0);
  std::string after_merge;
  for (std::size_t t = 257 + 2 * 50; t < 257 + 2 * 100; t += 2) after_merge += lines[t] + "\n";
  const RunResult from_merge =
      RunApp("predict --quiet --noclip_predictions --load=" + first_merge, after_merge);
  REQUIRE(from_merge.exit_code == 0);
  const std::vector<std::string> merged_model = Lines(from_merge.out);
  REQUIRE(merged_model.size() == 50);
  for (std::size_t i = 0; i < 50; ++i) {
    CHECK(merging[i] == got[i]);  // before the first merge: the base
    CHECK(std::stod(merging[50 + i]) ==
          Approx(std::stod(merged_model[i])).epsilon(1e-9).margin(1e-12));
  }
}

TEST_CASE("mpirun --rank_model=merged: merges every 8 D samples a rank unless told", "[app][mpi]") {
  TempDir dir;
  const std::string input = dir.File("stream.csv");
  std::ofstream(input) << SmoothCsv(256 + 2 * 1100);  // 1100 lines a rank after the window
  // D = 64: a merge at 512 and 1024 samples a rank, then the last.
  const RunResult by_default = RunMpi(2, kLearn + "--input=" + input);
  REQUIRE(by_default.exit_code == 0);
  CHECK(by_default.err.find("mpirun: 2 ranks, 3 merges") != std::string::npos);
  const RunResult at_the_end = RunMpi(2, kLearn + "--sync_every=0 --input=" + input);
  REQUIRE(at_the_end.exit_code == 0);
  CHECK(at_the_end.err.find("mpirun: 2 ranks, 1 merges") != std::string::npos);
}

TEST_CASE("mpirun --rank_model=merged, float32: one process's model to float32's digits",
          "[app][mpi][float32]") {
  // float32 takes each merge as the square root of A (a Cholesky
  // factorization in the SIMD kernels) and predicts from it unsettled.
  TempDir dir;
  const std::string input = dir.File("stream.csv"), single = dir.File("single.rff");
  std::ofstream(input) << SmoothCsv(2001);
  const std::string learn = "learn --features=64 --forget=1 --noclip_predictions ";
  REQUIRE(RunApp(learn + "--quiet --input=" + input + " --save=" + single, "").exit_code == 0);
  const std::string merged = dir.File("merged.rff");
  const RunResult run = RunMpi(2, learn + "--rank_model=merged --sync_every=100 --input=" + input +
                                      " --save=" + merged);
  REQUIRE(run.exit_code == 0);
  CHECK(run.err.find("2001 learned") != std::string::npos);
  CheckSameModel(merged, single, /*header=*/false, /*relative=*/1e-4, /*margin=*/1e-4);
}

TEST_CASE("mpirun --rank_model: what the merged ranks cannot do is refused by name",
          "[app][mpi][errors]") {
  TempDir dir;
  const std::string input = dir.File("stream.csv");
  std::ofstream(input) << SmoothCsv(400);
  const RunResult forgetting = RunMpi(2, "learn --rank_model=merged --forget=0.99 --input=" + input);
  CHECK(forgetting.exit_code == 2);
  CHECK(forgetting.err.find("--rank_model=merged needs --forget=1 or auto, not --forget=0.99") !=
        std::string::npos);
  const RunResult unknown = RunMpi(1, "learn --rank_model=mine --input=" + input);
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("--rank_model must be own or merged, not mine") != std::string::npos);
  // Ranks started with different --rank_model (mpirun's MPMD form).
  const RunResult mixed =
      RunShell(kMpirun + " -np 1 " + kApp + " learn --quiet --rank_model=merged --input=" + input +
               " : -np 1 " + kApp + " learn --quiet --input=" + input);
  CHECK(mixed.exit_code == 2);
  CHECK(mixed.err.find("every rank predicts with the same --rank_model") != std::string::npos);
}

}  // namespace
