// File: tests/mpi_process.h
//
// `mpirun -np N rffstream ...` really started (Open MPI on loopback, every
// run under a timeout), and the comparison of two saved models by their
// predictions.
#ifndef RFFSTREAM_TESTS_MPI_PROCESS_H_
#define RFFSTREAM_TESTS_MPI_PROCESS_H_

#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/app_process.h"

namespace rffstream::testing {

// Runs a shell command line, standard output and error to files.
inline RunResult RunShell(const std::string& command_line) {
  TempDir dir;
  const auto out = dir.path() / "out", err = dir.path() / "err";
  const int status = std::system((command_line + " < /dev/null > " + out.string() + " 2> " +
                                  err.string()).c_str());
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = ReadText(out);
  result.err = ReadText(err);
  return result;
}

// mpirun as root needs its consent; every job is bounded in time.
inline const std::string kMpirun =
    "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 mpirun --oversubscribe";
inline const std::string kApp = RFFSTREAM_APP_PATH;

inline RunResult RunMpi(int ranks, const std::string& arguments) {
  return RunShell(kMpirun + " -np " + std::to_string(ranks) + " " + kApp + " " + arguments);
}

inline std::vector<double> Predictions(const std::string& model, const std::string& queries) {
  const RunResult predicted = RunApp("predict --quiet --load=" + model, queries);
  REQUIRE(predicted.exit_code == 0);
  std::vector<double> values;
  for (const std::string& line : Lines(predicted.out)) values.push_back(std::stod(line));
  return values;
}

// New inputs (with a header and a label column when the model has a header).
inline std::string Queries(bool header) {
  std::string queries = header ? "a,b,y\n" : "";
  for (int t = 0; t < 40; ++t) {
    queries += std::to_string(std::sin(0.011 * t)) + "," + std::to_string(std::cos(0.023 * t)) +
               (header ? ",0\n" : "\n");
  }
  return queries;
}

// The same predictions to `relative` digits of each, or within `margin`
// where one is near zero: exact merges in float64 meet 1e-9 and 1e-12.
inline void CheckSameModel(const std::string& a, const std::string& b, bool header = false,
                           double relative = 1e-9, double margin = 1e-12) {
  const std::vector<double> from_a = Predictions(a, Queries(header)),
                            from_b = Predictions(b, Queries(header));
  REQUIRE(from_a.size() == 40);
  REQUIRE(from_b.size() == 40);
  for (std::size_t i = 0; i < from_a.size(); ++i) {
    CHECK(from_a[i] == Approx(from_b[i]).epsilon(relative).margin(margin));
  }
}

}  // namespace rffstream::testing

#endif  // RFFSTREAM_TESTS_MPI_PROCESS_H_
