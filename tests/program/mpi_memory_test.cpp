// `mpirun -np N rffstream learn`, really started: a rank holds, besides its
// model, the merges' numbers (the running total A and its own sums, D × D
// in double each), and --max_model_memory_mb counts them: a limit one
// process fits in but a rank does not is refused by every rank, by name,
// before those numbers are made.
#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "tests/mpi_process.h"

namespace {

using namespace rffstream::testing;

// D = 1024 in float32: the model takes about 5 MiB, a rank about 60 more.
const std::string kLearn = "learn --quiet --features=1024 --max_model_memory_mb=";

TEST_CASE("mpirun: --max_model_memory_mb counts a rank's merges", "[app][mpi][errors]") {
  TempDir dir;
  const std::string input = dir.File("stream.csv");
  std::ofstream(input) << SmoothCsv(400);
  CHECK(RunApp(kLearn + "40 --input=" + input, "").exit_code == 0);
  const RunResult refused = RunMpi(2, kLearn + "40 --input=" + input);
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("under mpirun a rank would take about ") != std::string::npos);
  CHECK(refused.err.find("more than the limit of 40 MiB (--max_model_memory_mb") != std::string::npos);
  CHECK(RunMpi(2, kLearn + "100 --input=" + input).exit_code == 0);
}

}  // namespace
