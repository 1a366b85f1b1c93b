// Parser throughput in MB/s (bytes_per_second) and lines/s (items_per_second)
// for each format, against a naive std::getline + std::stod loop in the same
// binary. Lines of 16 inputs and a target, as `rffstream learn` sees them.
//
//   build/bench/parsers_bench
#include <benchmark/benchmark.h>

#include <charconv>
#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "rffstream/csv_line_parser.h"
#include "rffstream/libsvm_line_parser.h"

namespace rffstream {
namespace {

constexpr int kLines = 10000;
constexpr int kInputs = 16;

std::string Number(double value) {
  char text[32];
  return std::string(text, std::to_chars(text, text + sizeof(text), value).ptr);
}

// kLines lines in the given format ("csv", "dense" or "libsvm").
std::string MakeText(std::string_view format) {
  std::string text;
  for (int t = 0; t < kLines; ++t) {
    const double target = std::sin(0.1 * t);
    if (format == "libsvm") text += Number(target);
    for (int j = 0; j < kInputs; ++j) {
      const double value = std::sin(0.37 * t + 1.3 * j);
      if (format == "libsvm") {
        text += " " + std::to_string(j + 1) + ":" + Number(value);
      } else {
        text += Number(value) + (format == "csv" ? "," : " ");
      }
    }
    if (format != "libsvm") text += Number(target);
    text += "\n";
  }
  return text;
}

void RunParser(benchmark::State& state, const LineParser& parser, const std::string& text) {
  std::vector<double> inputs(parser.num_inputs()), targets(parser.num_targets());
  for (auto _ : state) {
    std::string_view rest = text;
    while (!rest.empty()) {
      const size_t newline = rest.find('\n');
      absl::StatusOr<bool> labelled = parser.ParseTargets(rest.substr(0, newline), inputs, targets);
      benchmark::DoNotOptimize(labelled);
      rest.remove_prefix(newline + 1);
    }
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
  state.SetItemsProcessed(state.iterations() * kLines);
}

void BM_ParseCsv(benchmark::State& state) {
  RunParser(state, CsvLineParser(kInputs + 1, kInputs), MakeText("csv"));
}
BENCHMARK(BM_ParseCsv);

void BM_ParseDense(benchmark::State& state) {
  RunParser(state, CsvLineParser(kInputs + 1, std::vector<int>{kInputs}, CsvLineParser::kWhitespace),
            MakeText("dense"));
}
BENCHMARK(BM_ParseDense);

void BM_ParseLibsvm(benchmark::State& state) {
  RunParser(state, LibsvmLineParser(kInputs), MakeText("libsvm"));
}
BENCHMARK(BM_ParseLibsvm);

// The baseline: what a first implementation writes.
void BM_ParseCsvNaive(benchmark::State& state) {
  const std::string text = MakeText("csv");
  std::vector<double> values(kInputs + 1);
  for (auto _ : state) {
    std::istringstream stream(text);
    std::string line, field;
    while (std::getline(stream, line)) {
      std::istringstream fields(line);
      int index = 0;
      while (std::getline(fields, field, ',')) values[index++] = std::stod(field);
      benchmark::DoNotOptimize(values.data());
    }
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
  state.SetItemsProcessed(state.iterations() * kLines);
}
BENCHMARK(BM_ParseCsvNaive);

}  // namespace
}  // namespace rffstream
