#include "rffstream/csv_line_parser.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
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

TEST_CASE("A line of the wrong width says so before its bad fields", "[csv][errors]") {
  std::vector<double> x(2);
  CHECK(CsvLineParser(3, 2).Parse("a,b", x).status().message() == "expected 3 fields, got 2");
  CHECK(CsvLineParser(3, 2).Parse("a,b,c,d", x).status().message() == "expected 3 fields, got 4");
}

TEST_CASE("A quote that is never closed is named, not read as a number", "[csv][errors]") {
  std::vector<double> x(2);
  CHECK(CsvLineParser(3, 2).Parse("\"1,2,3", x).status().message() ==
        "column 0: '\"1,2,3' opens a quote (\") that is not closed");
  CHECK(CsvLineParser(3, 2).Parse("1,\"2,3", x).status().message() ==
        "column 1: '\"2,3' opens a quote (\") that is not closed");
  // A quote closed before more text is text; an ignored column's quote is
  // its own business.
  CHECK(CsvLineParser(3, 2).Parse("1,\"2\"x,3", x).status().message() ==
        "column 1: '\"2\"x' is not a number (a text column? declare it categorical)");
  std::vector<double> one(1);
  REQUIRE(CsvLineParser(3, {1}, ',', {2}).Parse("1,2,\"note", one).ok());
  // Unless it swallowed the fields after it.
  CHECK(CsvLineParser(3, {1}, ',', {0}).Parse("\"note,2,3", one).status().message() ==
        "column 0: '\"note,2,3' opens a quote (\") that is not closed");
  REQUIRE(CsvLineParser(3, 2).Parse("\"1\",\"2,0\",3", x).status().message() ==
          "column 1: '2,0' is not a number (a text column? declare it categorical)");
}

TEST_CASE("A field that is not a number names its 0-based column", "[csv][errors]") {
  std::vector<double> x(2);
  CHECK(CsvLineParser(3, 2).Parse("1,abc,3", x).status().message() ==
        "column 1: 'abc' is not a number (a text column? declare it categorical)");
  CHECK(CsvLineParser(3, 2).Parse("1,2x,3", x).status().message() ==
        "column 1: '2x' is not a number (a text column? declare it categorical)");
  CsvLineParser::Columns named{3, {2}, {}, {}, 0, {"sqft", "city", "price"}};
  CHECK(CsvLineParser(named).Parse("1,paris,3", x).status().message() ==
        "column 1 'city': 'paris' is not a number (a text column? declare it categorical)");
  // A target that is not a number gets no hint: targets are numbers.
  CHECK(CsvLineParser(3, 2).Parse("1,2,cheap", x).status().message() ==
        "column 2: 'cheap' is not a number");
}

TEST_CASE("Missing inputs are NaN and missing targets make a line predict-only",
          "[csv][missing]") {
  std::vector<double> x(2);
  for (const char* missing : {"", "NA", "na", "N/A", "NaN", "nan", "null", "NULL", "None", "?",
                              " ? ", "\"\"", "\"NA\""}) {
    CAPTURE(missing);
    absl::StatusOr<std::optional<double>> parsed =
        CsvLineParser(3, 2).Parse(std::string("1,") + missing + ",3", x);
    REQUIRE(parsed.ok());
    CHECK(x[0] == 1.0);
    CHECK(std::isnan(x[1]));
    CHECK(parsed->value() == 3.0);
    parsed = CsvLineParser(3, 2).Parse(std::string("1,2,") + missing, x);
    REQUIRE(parsed.ok());
    CHECK_FALSE(parsed->has_value());
  }
  // Words that only start like a missing marker are not missing.
  CHECK_FALSE(CsvLineParser(3, 2).Parse("1,nano,3", x).ok());
  CHECK_FALSE(CsvLineParser(3, 2).Parse("1,NAN2,3", x).ok());
  // Some targets missing and others not is an error.
  std::vector<double> targets(2);
  CHECK(CsvLineParser(3, std::vector<int>{1, 2}).ParseTargets("1,NA,2", std::span(x).first(1), targets)
            .status()
            .message() == "1 of 2 target fields are missing (all or none)");
}

TEST_CASE("Infinity and numbers beyond double range are rejected", "[csv][errors]") {
  std::vector<double> x(2);
  CHECK(CsvLineParser(3, 2).Parse("1,2,-inf", x).status().message() ==
        "column 2: '-inf' is infinite");
  CHECK(CsvLineParser(3, 2).Parse("inf,2,1", x).status().message() ==
        "column 0: 'inf' is infinite");
  CHECK(CsvLineParser(3, 2).Parse("1e999,1,2", x).status().message() ==
        "column 0: '1e999' is out of range for a double");
}

TEST_CASE("Long bad fields are quoted shortened", "[csv][errors]") {
  std::vector<double> x(1);
  const std::string field(100, 'z');
  CHECK(CsvLineParser(2, 1).Parse(field + ",1", x).status().message() ==
        "column 0: '" + std::string(32, 'z') +
            "...' is not a number (a text column? declare it categorical)");
}

TEST_CASE("A category column's value sets two of its buckets to 1/sqrt(2)", "[csv][categorical]") {
  constexpr int kBuckets = 16;
  // sqft, city (text), rooms, price (target).
  const CsvLineParser parser(CsvLineParser::Columns{4, {3}, {}, {1}, kBuckets, {}});
  REQUIRE(parser.num_inputs() == 2 + kBuckets);
  std::vector<double> x(parser.num_inputs(), -1.0);
  const auto buckets_of = [&](const std::string& line) {
    absl::StatusOr<std::optional<double>> parsed = parser.Parse(line, x);
    REQUIRE(parsed.ok());
    std::vector<int> set;
    for (int b = 0; b < kBuckets; ++b) {
      const double value = x[1 + b];
      if (value != 0.0) {
        CHECK(value == Approx(std::sqrt(0.5)));
        set.push_back(b);
      }
    }
    return set;
  };
  const std::vector<int> paris = buckets_of("80,paris,3,100");
  CHECK(x[0] == 80.0);
  CHECK(x[1 + kBuckets] == 3.0);
  CHECK(paris.size() == 2);
  // The same value, quoted or padded, sets the same buckets: the hash is a
  // pure function of the text, the same in every run.
  CHECK(buckets_of("80, \"paris\" ,3,100") == paris);
  CHECK(buckets_of("80,paris,3,100") == paris);
  // Values differ in at least one bucket, and case matters.
  int apart = 0;
  for (const char* city : {"lyon", "nice", "Paris", "lille", "nantes", "rennes", "brest", "metz"}) {
    const std::vector<int> other = buckets_of(std::string("80,") + city + ",3,100");
    CHECK(other.size() == 2);
    apart += other != paris;
  }
  CHECK(apart == 8);
  // A missing category sets no bucket; numbers in the column are text too.
  CHECK(buckets_of("80,NA,3,100").empty());
  CHECK(buckets_of("80,,3,100").empty());
  CHECK(buckets_of("80,75001,3,100").size() == 2);
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
