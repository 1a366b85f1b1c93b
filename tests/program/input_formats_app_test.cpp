// End-to-end tests of the input formats `rffstream learn` reads (libsvm, dense, other
// delimiters, ignored columns), their errors, and the messages for the input a new user meets
// on day one. The built binary, run by the shell with real files.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/app_process.h"

namespace {

using namespace rffstream::testing;

TEST_CASE("learn reads libsvm, dense and other delimiters, and ignores columns", "[app][formats]") {
  const RunResult libsvm = RunApp("learn --format=libsvm --dim=3 --predictions=- --quiet --features=16",
                                  "1 1:0.5 3:2\n-1 2:1\n3:1\n2 7:1\n");
  CHECK(libsvm.exit_code == 0);
  CHECK(Lines(libsvm.out).size() == 4);
  const RunResult dense = RunApp("learn --format=dense --predictions=- --quiet --features=16",
                                 "1  2\t3\n  4 5 6\n");
  CHECK(dense.exit_code == 0);
  CHECK(Lines(dense.out).size() == 2);
  const RunResult semicolon = RunApp("learn '--delimiter=;' --predictions=- --quiet --features=16",
                                     "1;2;3\n4;5;6\n");
  CHECK(semicolon.exit_code == 0);
  CHECK(Lines(semicolon.out).size() == 2);
  const RunResult ignored = RunApp("learn --header --ignore=id --target=y --predictions=- --features=16",
                                   "id,a,y\nx17,1,2\nx18,2,3\n");
  CHECK(ignored.exit_code == 0);
  CHECK(ignored.err.find("2 learned, 0 predicted only, 0 rejected") != std::string::npos);
}

TEST_CASE("Format errors: usage and lines", "[app][formats][errors]") {
  const RunResult inferred = RunApp("learn --format=libsvm --predictions=- --features=16", "1 1:1\n-1 4:2\n");
  CHECK(inferred.exit_code == 0);
  CHECK(inferred.err.find("libsvm dimension inferred: 4") != std::string::npos);
  CHECK(Lines(inferred.out).size() == 2);
  const RunResult no_index = RunApp("learn --format=libsvm", "1\n2\n");
  CHECK(no_index.exit_code == 3);
  CHECK(no_index.err.find("no feature index in the first 2 lines to infer --dim from") != std::string::npos);
  const RunResult serve = RunApp("serve --format=libsvm", "");
  CHECK(serve.exit_code == 2);
  CHECK(serve.err.find("--format=libsvm needs --dim=N (the number of inputs)") != std::string::npos);
  const RunResult beyond = RunApp("learn --format=libsvm --dim=2 --features=16", "1 1:1\n1 3:1\n");
  CHECK(beyond.exit_code == 0);
  CHECK(beyond.err.find("line 2: token 2: index 3 is outside 1..2 (--dim) (skipped)") != std::string::npos);
  const RunResult xml = RunApp("learn --format=xml", "");
  CHECK(xml.exit_code == 2);
  CHECK(xml.err == "rffstream learn: --format=xml: expected csv, dense or libsvm\n");
  CHECK(RunApp("learn --delimiter=ab", "").exit_code == 2);
}



TEST_CASE("Input a new user meets on day one gets a helpful message", "[app][errors][formats]") {
  SECTION("a UTF-8 byte order mark") {
    const RunResult result = RunApp("learn --header --target=c --quiet", "\xEF\xBB\xBF" "a,b,c\n1,2,3\n");
    CHECK(result.exit_code == 0);
  }
  SECTION("a tab-separated file") {
    const RunResult result = RunApp("learn", "1\t2\t3\n");
    CHECK(result.exit_code == 3);
    CHECK(result.err.find("need at least 2 columns (inputs and a target), got 1 with delimiter ','; "
                          "the line has 'tab' characters: try --delimiter=tab (or --format=dense)") !=
          std::string::npos);
  }
  SECTION("a semicolon-separated file") {
    CHECK(RunApp("learn", "1;2;3\n").err.find("try --delimiter=';'") != std::string::npos);
    // With a header, the header line gives the hint.
    CHECK(RunApp("learn --header", "a;b;c\n1;2;3\n").err.find("try --delimiter=';'") !=
          std::string::npos);
  }
  SECTION("a libsvm file") {
    CHECK(RunApp("learn", "1 3:0.5 7:1.25\n").err.find("try --format=libsvm") != std::string::npos);
  }
  SECTION("a target of text under a header") {
    const RunResult result = RunApp("learn --header --quiet", "a,b,y\n1,2,yes\n3,4,no\n");
    CHECK(result.exit_code == 3);
    CHECK(result.err.find("'yes' is not a number, so this line is no data (a target holds numbers: "
                          "classes as 0 .. K-1 with --classes=K)") != std::string::npos);
  }
  SECTION("a target name not in the header") {
    const RunResult result = RunApp("learn --header --target=price", "a,b,medv\n1,2,3\n");
    CHECK(result.exit_code == 2);
    CHECK(result.err.find("--target=price: no such column; the header has a, b, medv") !=
          std::string::npos);
  }
  SECTION("--ignore names itself") {
    const RunResult result = RunApp("learn --header --ignore=foo", "a,b,c\n1,2,3\n");
    CHECK(result.exit_code == 2);
    CHECK(result.err.find("--ignore=foo: no such column") != std::string::npos);
  }
  SECTION("duplicate column names") {
    const RunResult warned = RunApp("learn --header --quiet", "a,a,y\n1,2,3\n");
    CHECK(warned.exit_code == 0);
    CHECK(warned.err.find("warning: the header names more than one column 'a'") != std::string::npos);
    const RunResult ambiguous = RunApp("learn --header --target=a", "a,a,y\n1,2,3\n");
    CHECK(ambiguous.exit_code == 2);
    CHECK(ambiguous.err.find("the header names more than one column 'a'; give the column's 0-based "
                             "index instead") != std::string::npos);
  }
}

}  // namespace
