// The summary's rejected lines by cause: grouping by message with the
// quoted values left out, and the fix for a text value in a number column,
// named so that the flags read it back as that column.
#include "front/rejection_causes.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace rffstream::app {
namespace {

std::string Printed(const RejectionCauses& causes) {
  char* text = nullptr;
  std::size_t size = 0;
  std::FILE* log = open_memstream(&text, &size);
  causes.Print(log);
  std::fclose(log);
  std::string printed(text, size);
  std::free(text);
  return printed;
}

TEST_CASE("Rejected lines are grouped by cause, with the first of each", "[rejection_causes]") {
  RejectionCauses causes;
  causes.Add(3, "column 1 'city': 'lyon' is not a number (a text column? declare it categorical)");
  causes.Add(5, "column 1 'city': 'nice' is not a number (a text column? declare it categorical)");
  causes.Add(9, "expected 4 fields, got 3");
  CHECK(Printed(causes) ==
        "rejected lines by cause (the first of each):\n"
        "  2 x line 3: column 1 'city': 'lyon' is not a number (a text column? declare it "
        "categorical)\n"
        "      the fix: --categorical=city (or --ignore=city to leave it out)\n"
        "  1 x line 9: expected 4 fields, got 3\n");
}

TEST_CASE("The fix names a column as the flags read it back", "[rejection_causes]") {
  const auto fix = [](const std::string& column) {
    RejectionCauses causes;
    causes.Add(2, column + ": 'x' is not a number (a text column? declare it categorical)");
    const std::string printed = Printed(causes);
    const std::size_t at = printed.find("the fix: --categorical=");
    REQUIRE(at != std::string::npos);
    const std::size_t start = at + std::string("the fix: --categorical=").size();
    return printed.substr(start, printed.find(' ', start) - start);
  };
  CHECK(fix("column 4 'city'") == "city");
  CHECK(fix("column 4") == "4");                      // no header
  CHECK(fix("column 4 '2019'") == "4");               // a number would be read as an index
  CHECK(fix("column 4 'last'") == "4");               // a word the flags reserve
  CHECK(fix("column 4 'a,b'") == "4");                // a list
  CHECK(fix("column 4 'a_rather_long_name_cut...'") == "4");  // cut short in the message
}

TEST_CASE("For a loaded model the fix is a new model, not flags it would refuse",
          "[rejection_causes]") {
  RejectionCauses causes;
  causes.set_model_loaded();
  causes.Add(2, "column 0 'sqft': 'abc' is not a number (a text column? declare it categorical)");
  CHECK(Printed(causes).find("the fix: the model reads column 0 'sqft' as numbers: correct the "
                             "value, or learn a new model with --categorical=sqft\n") !=
        std::string::npos);
}

}  // namespace
}  // namespace rffstream::app
