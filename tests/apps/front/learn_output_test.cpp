// What learn writes, in this process: the stream pipeline's outcomes go to a
// LearnOutput that writes the predictions to a real file and its messages
// and summary to a log file, as `learn` does with its standard error.
#include "front/learn_output.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "rffstream/stream/stream_pipeline.h"
#include "tests/temp_dir.h"

namespace rffstream::app {
namespace {

using rffstream::testing::TempDir;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string ReadLog(std::FILE* log) {
  std::fflush(log);
  std::rewind(log);
  std::string text;
  char chunk[4096];
  while (const std::size_t n = std::fread(chunk, 1, sizeof(chunk), log)) text.append(chunk, n);
  return text;
}

std::string DataLine(int i) {
  const double x = 0.1 * i, y = std::sin(0.7 * i);
  return absl::StrCat(x, ",", y, ",", x * y + std::cos(x));
}

// Runs `lines` through a pipeline (a fixed bandwidth and ridge, no warm-up)
// into a LearnOutput; returns the prediction file's lines and the log.
struct Written {
  std::vector<std::string> predictions;
  std::string log;
  RunTotals totals;
  bool stopped = false;
};

Written Run(const std::vector<std::string>& lines, const OutputOptions& options) {
  TempDir dir;
  const std::string path = dir.File("predictions.txt");
  absl::StatusOr<PredictionWriter> writer = PredictionWriter::Open(path);
  REQUIRE(writer.ok());
  absl::StatusOr<MetricsLog> metrics = MetricsLog::Open("", 0);
  REQUIRE(metrics.ok());
  std::FILE* log = std::tmpfile();
  REQUIRE(log != nullptr);
  Written written;
  {
    LearnOutput<double> output(*writer, log, options, "sensors.csv", *std::move(metrics),
                               ProgressLine(log, -1, /*wanted=*/false));
    PipelineSettings settings;
    settings.model.features = 32;
    settings.model.gamma = 0.5;
    settings.model.ridge = 0.01;
    settings.model.standardize = 0;
    settings.model.given.Add("standardize");
    settings.reads_header = false;
    settings.quiet = true;
    StreamPipeline<double> pipeline(settings, output);
    output.Watch(pipeline.model());
    for (std::size_t i = 0; i < lines.size() && !written.stopped; ++i) {
      written.stopped = !pipeline.Push(static_cast<std::int64_t>(i) + 1, lines[i]).ok();
    }
    if (!written.stopped) REQUIRE(pipeline.Finish().ok());
    written.totals = output.Totals(static_cast<std::int64_t>(lines.size()));
    if (!written.stopped) output.PrintSummary(written.totals, "learned");
    REQUIRE(writer->Close().ok());
  }
  written.log = ReadLog(log);
  std::fclose(log);
  written.predictions = absl::StrSplit(ReadFile(path), '\n');
  written.predictions.pop_back();  // after the last '\n'
  return written;
}

TEST_CASE("One prediction line per input line, empty for a blank or a bad one",
          "[learn_output]") {
  std::vector<std::string> lines;
  for (int i = 0; i < 20; ++i) lines.push_back(DataLine(i));
  lines[3] = "";
  lines[7] = "1,x,2";
  const Written written = Run(lines, OutputOptions());
  REQUIRE(written.predictions.size() == lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    INFO("line " << i + 1);
    CHECK(written.predictions[i].empty() == (i == 3 || i == 7));
  }
  CHECK(written.totals.rejected == 1);
  CHECK(written.totals.lines_read == 20);
  CHECK(written.log.find("rffstream: sensors.csv: line 8: column 1: 'x' is not a number") !=
        std::string::npos);
  CHECK(written.log.find("(skipped)") != std::string::npos);
  CHECK(written.log.find("20 lines read, 18 learned") != std::string::npos);
}

TEST_CASE("Bad lines are named up to --max_error_messages, then only counted",
          "[learn_output]") {
  std::vector<std::string> lines;
  for (int i = 0; i < 30; ++i) lines.push_back(i % 3 == 1 ? absl::StrCat("bad", i) : DataLine(i));
  OutputOptions options;
  options.max_error_messages = 4;
  const Written written = Run(lines, options);
  INFO(written.log);
  CHECK(written.totals.rejected == 10);
  std::size_t named = 0;
  for (std::size_t at = written.log.find("(skipped)"); at != std::string::npos;
       at = written.log.find("(skipped)", at + 1)) {
    ++named;
  }
  CHECK(named == 4);
  CHECK(written.log.find("line 14: ") == std::string::npos);  // the fifth bad line
  CHECK(written.log.find("10 rejected") != std::string::npos);
}

TEST_CASE("Under --strict the first bad line stops the stream and is named", "[learn_output]") {
  std::vector<std::string> lines;
  for (int i = 0; i < 10; ++i) lines.push_back(DataLine(i));
  lines[5] = "1,2";
  OutputOptions options;
  options.strict = true;
  const Written written = Run(lines, options);
  CHECK(written.stopped);
  CHECK(written.predictions.size() == 5);  // lines 1 to 5 answered; nothing for line 6
  CHECK(written.log.find("line 6: ") != std::string::npos);
  CHECK(written.log.find("(skipped)") == std::string::npos);
}

}  // namespace
}  // namespace rffstream::app
