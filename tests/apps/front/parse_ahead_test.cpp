// Parsing ahead on a thread of its own: every line, in order, numbered, and
// mapped to the learner's feature row once asked.
#include "front/parse_ahead.h"

#include <unistd.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "catch2/catch.hpp"
#include "rffstream/csv_line_parser.h"
#include "rffstream/learner.h"

namespace rffstream::app {
namespace {

TEST_CASE("Parsed ahead: all lines in order, numbered, mapped after MapWith", "[parse_ahead]") {
  std::string input;
  constexpr int kLines = 3000;
  for (int i = 0; i < kLines; ++i) input += i == 7 ? "oops\n" : absl::StrCat(i, ",", 2 * i, "\n");
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  std::thread writer([&] {
    REQUIRE(::write(fds[1], input.data(), input.size()) == static_cast<ssize_t>(input.size()));
    ::close(fds[1]);
  });
  LearnerConfig config;
  config.features.input_dimension = 1;
  config.features.num_features = 8;
  absl::StatusOr<Learner> learner = Learner::Create(config);
  REQUIRE(learner.ok());
  CsvLineParser parser(2, 1);
  LineReader reader(fds[0], 100);
  std::int64_t expected_line = 1;  // the reader's numbers
  {
    ParseAhead<double> ahead(reader, parser);
    bool mapping = false;
    std::vector<double> row(static_cast<std::size_t>(learner->row_length()));
    while (const ParseAhead<double>::Batch* batch = ahead.Next()) {
      for (int i = 0; i < batch->size(); ++i, ++expected_line) {
        const ParsedLine& line = batch->line(i);
        REQUIRE(line.line_number == expected_line);
        const int value = static_cast<int>(expected_line - 1);
        if (value == 7) {
          CHECK(line.kind == ParsedLine::Kind::kMalformed);
          continue;
        }
        REQUIRE(line.kind == ParsedLine::Kind::kValues);
        CHECK(batch->inputs(i)[0] == value);
        CHECK(batch->targets(i)[0] == 2 * value);
        if (batch->feature_row(i).empty()) continue;
        learner->MapRow(batch->inputs(i), row);
        CHECK(std::equal(row.begin(), row.end(), batch->feature_row(i).begin()));
      }
      if (!mapping && expected_line > 1000) {
        ahead.MapWith(*learner);
        mapping = true;
      }
    }
  }
  writer.join();
  ::close(fds[0]);
  CHECK(expected_line == 1 + kLines);
}

}  // namespace
}  // namespace rffstream::app
