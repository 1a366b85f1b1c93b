// File: tests/app_process.h
//
// Runs the built `rffstream` binary the way a shell does, with real files
// for standard input, output and error: the helpers of the process-level
// tests of learn, predict and export.
#ifndef RFFSTREAM_TESTS_APP_PROCESS_H_
#define RFFSTREAM_TESTS_APP_PROCESS_H_

#include <sys/wait.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/child_process.h"
#include "tests/temp_dir.h"

namespace rffstream::testing {

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs the app with `arguments`, `input` on standard input, and optional
// environment assignments ("NAME=value") in front.
inline RunResult RunApp(const std::string& arguments, const std::string& input,
                        const std::string& environment = "") {
  TempDir dir;
  const auto in = dir.path() / "in", out = dir.path() / "out", err = dir.path() / "err";
  std::ofstream(in) << input;
  const std::string command = environment + " " + std::string(RFFSTREAM_APP_PATH) + " " +
                              arguments + " < " +
                              in.string() + " > " + out.string() + " 2> " + err.string();
  const int status = std::system(command.c_str());
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = ReadText(out);
  result.err = ReadText(err);
  return result;
}

inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

inline std::string SmoothCsv(int lines) {
  std::string csv;
  for (int t = 0; t < lines; ++t) {
    const double a = std::sin(0.1 * t), b = std::cos(0.07 * t);
    csv += std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(a * b + a) + "\n";
  }
  return csv;
}

// Two smooth inputs; the target follows one function up to `switch_at`,
// then another, of the other input and a different level.
inline std::string SwitchingCsv(int lines, int switch_at) {
  std::string csv;
  for (int t = 0; t < lines; ++t) {
    const double a = std::sin(0.37 * t), b = std::cos(0.23 * t);
    const double y = t < switch_at ? a * a + 0.5 * a : 4.0 + 2.0 * b;
    csv += std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(y) + "\n";
  }
  return csv;
}

// Friedman #1: `inputs` inputs (at least 5), 5 of them relevant, noise
// uniform on ±1.
inline std::string FriedmanCsv(int lines, int inputs) {
  std::uint64_t state = 2026;
  const auto uniform = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) * 0x1.0p-53;
  };
  std::string csv;
  std::vector<double> x(static_cast<std::size_t>(inputs));
  for (int t = 0; t < lines; ++t) {
    for (double& value : x) value = uniform();
    const double y = 10 * std::sin(M_PI * x[0] * x[1]) + 20 * (x[2] - 0.5) * (x[2] - 0.5) +
                     10 * x[3] + 5 * x[4] + 2 * (uniform() - 0.5);
    for (const double value : x) csv += std::to_string(value) + ",";
    csv += std::to_string(y) + "\n";
  }
  return csv;
}

// A 3-class stream of 2 inputs and the class, with a header.
inline std::string ClassCsv(int lines) {
  std::string csv = "x,y,label\n";
  for (int t = 0; t < lines; ++t) {
    const double x = std::sin(0.37 * t), y = std::cos(0.91 * t);
    csv += std::to_string(x) + "," + std::to_string(y) + "," +
           std::to_string(x > 0 ? (y > 0 ? 0 : 1) : 2) + "\n";
  }
  return csv;
}

}  // namespace rffstream::testing

#endif  // RFFSTREAM_TESTS_APP_PROCESS_H_
