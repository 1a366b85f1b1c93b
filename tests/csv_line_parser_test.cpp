#include "rffstream/csv_line_parser.h"

#include <catch2/catch.hpp>
#include <vector>

namespace rffstream {
namespace {

TEST_CASE("Parses inputs and the target in any column", "[csv]") {
  std::vector<double> x(3);
  SECTION("target last") {
    CsvLineParser parser(4, 3);
    absl::StatusOr<std::optional<double>> target = parser.Parse("1, 2.5,-3e2,4", x);
    REQUIRE(target.ok());
    CHECK(**target == 4.0);
    CHECK(x == std::vector<double>{1.0, 2.5, -300.0});
  }
  SECTION("target first, CRLF line ending, leading +") {
    CsvLineParser parser(4, 0);
    absl::StatusOr<std::optional<double>> target = parser.Parse("+7,1,2,3\r", x);
    REQUIRE(target.ok());
    CHECK(**target == 7.0);
    CHECK(x == std::vector<double>{1.0, 2.0, 3.0});
  }
  SECTION("tab delimiter") {
    CsvLineParser parser(4, 1, '\t');
    absl::StatusOr<std::optional<double>> target = parser.Parse("1\t9\t2\t3", x);
    REQUIRE(target.ok());
    CHECK(**target == 9.0);
  }
}

TEST_CASE("An empty target field means predict only", "[csv]") {
  std::vector<double> x(2);
  CsvLineParser parser(3, 2);
  absl::StatusOr<std::optional<double>> target = parser.Parse("0.5,0.25,", x);
  REQUIRE(target.ok());
  CHECK_FALSE(target->has_value());
  CHECK(x == std::vector<double>{0.5, 0.25});
}

TEST_CASE("Lines without a target column hold inputs only", "[csv]") {
  std::vector<double> x(3);
  CsvLineParser parser(3, CsvLineParser::kNoTarget);
  CHECK(parser.num_inputs() == 3);
  absl::StatusOr<std::optional<double>> target = parser.Parse("1,2,3", x);
  REQUIRE(target.ok());
  CHECK_FALSE(target->has_value());
  CHECK(x == std::vector<double>{1.0, 2.0, 3.0});
}

TEST_CASE("Too few fields", "[csv][errors]") {
  std::vector<double> x(2);
  CHECK(CsvLineParser(3, 2).Parse("1,2", x).status().message() == "expected 3 fields, got 2");
}

TEST_CASE("Too many fields", "[csv][errors]") {
  std::vector<double> x(2);
  CHECK(CsvLineParser(3, 2).Parse("1,2,3,4,5", x).status().message() ==
        "expected 3 fields, got 5");
}

TEST_CASE("A field that is not a number", "[csv][errors]") {
  std::vector<double> x(2);
  CHECK(CsvLineParser(3, 2).Parse("1,abc,3", x).status().message() ==
        "field 2: 'abc' is not a number");
  CHECK(CsvLineParser(3, 2).Parse("1,2x,3", x).status().message() ==
        "field 2: '2x' is not a number");
}

TEST_CASE("An empty input field", "[csv][errors]") {
  std::vector<double> x(2);
  CHECK(CsvLineParser(3, 2).Parse("1,,3", x).status().message() == "field 2 is empty");
}

TEST_CASE("NaN and infinity are rejected", "[csv][errors]") {
  std::vector<double> x(2);
  CHECK(CsvLineParser(3, 2).Parse("nan,1,2", x).status().message() ==
        "field 1: 'nan' is not finite (NaN/Inf)");
  CHECK(CsvLineParser(3, 2).Parse("1,2,-inf", x).status().message() ==
        "field 3: '-inf' is not finite (NaN/Inf)");
}

TEST_CASE("A number out of double range", "[csv][errors]") {
  std::vector<double> x(2);
  CHECK(CsvLineParser(3, 2).Parse("1e999,1,2", x).status().message() ==
        "field 1: '1e999' is out of range for a double");
}

TEST_CASE("Long bad fields are quoted shortened", "[csv][errors]") {
  std::vector<double> x(1);
  const std::string field(100, 'z');
  CHECK(CsvLineParser(2, 1).Parse(field + ",1", x).status().message() ==
        "field 1: '" + std::string(32, 'z') + "...' is not a number");
}

TEST_CASE("Quoted fields, whitespace-separated lines and ignored columns", "[csv]") {
  std::vector<double> x(2);
  double target = 0;
  SECTION("quotes may hold the delimiter's neighbours and spaces") {
    CsvLineParser parser(3, 2);
    absl::StatusOr<std::optional<double>> parsed = parser.Parse("\"1.5\", \" 2 \",\"3\"", x);
    REQUIRE(parsed.ok());
    CHECK(**parsed == 3.0);
    CHECK(x == std::vector<double>{1.5, 2.0});
  }
  SECTION("dense format: runs of blanks separate fields") {
    CsvLineParser parser(3, std::vector<int>{0}, CsvLineParser::kWhitespace);
    absl::StatusOr<bool> labelled = parser.ParseTargets("  7 \t 1.5   2  ", x, {&target, 1});
    REQUIRE(labelled.ok());
    CHECK(target == 7.0);
    CHECK(x == std::vector<double>{1.5, 2.0});
  }
  SECTION("ignored columns are neither inputs nor targets, and may hold anything") {
    CsvLineParser parser(4, std::vector<int>{3}, ',', std::vector<int>{0});
    CHECK(parser.num_inputs() == 2);
    absl::StatusOr<bool> labelled = parser.ParseTargets("id-17,1,2,9", x, {&target, 1});
    REQUIRE(labelled.ok());
    CHECK(target == 9.0);
    CHECK(x == std::vector<double>{1.0, 2.0});
  }
}

TEST_CASE("Header names are split and unquoted", "[csv]") {
  CHECK(SplitCsvHeader(" a ,\"b c\",target\r") == std::vector<std::string>{"a", "b c", "target"});
  CHECK(CountCsvFields("1,2,3\r") == 3);
  CHECK(CountCsvFields("") == 1);
}

}  // namespace
}  // namespace rffstream
