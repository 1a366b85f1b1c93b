// The README's demo output is what the demo prints: `./dev.sh demo` runs the
// commands below, and the README quotes their summary lines.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <sstream>
#include <string>

#include "tests/app_process.h"

namespace rffstream::testing {
namespace {

constexpr char kGenerate[] = "generate --series=mackey-glass --samples=20000";
constexpr char kLearn[] = "learn --features=256";

// The line of `text` that starts with `prefix` (the whole line).
std::string LineStartingWith(const std::string& text, const std::string& prefix) {
  const std::size_t start = text.find("\n" + prefix);
  REQUIRE(start != std::string::npos);
  return text.substr(start + 1, text.find('\n', start + 1) - start - 1);
}

TEST_CASE("The README's demo output is the demo's", "[readme][app]") {
  const std::string readme = ReadText(std::string(RFFSTREAM_SOURCE_DIR) + "/README.md");
  const std::string dev_script = ReadText(std::string(RFFSTREAM_SOURCE_DIR) + "/dev.sh");
  REQUIRE(dev_script.find(std::string(kGenerate) + " |") != std::string::npos);
  REQUIRE(dev_script.find(std::string(kLearn) + "\n") != std::string::npos);

  const RunResult series = RunApp(kGenerate, "");
  REQUIRE(series.exit_code == 0);
  const RunResult learned = RunApp(kLearn, series.out);
  REQUIRE(learned.exit_code == 0);
  const std::string finished = LineStartingWith(readme, "finished: ");
  INFO("the README says: " << finished);
  CHECK(learned.err.find(finished + "\n") != std::string::npos);
  // float32's last digits depend on the CPU's SIMD path and the compiler
  // (the mean absolute error moves by 2e-4 of itself between AVX-512, AVX2
  // and SSE2): the scores agree to 1e-3.
  const std::string scores = LineStartingWith(readme, "progressive validation: ");
  const std::string printed = LineStartingWith(learned.err, "progressive validation: ");
  INFO("the README says: " << scores << "\nthe demo printed: " << printed);
  std::istringstream expected_words(scores), printed_words(printed);
  std::string expected, word;
  while (expected_words >> expected) {
    REQUIRE(printed_words >> word);
    char* end = nullptr;
    const double value = std::strtod(expected.c_str(), &end);
    if (end == expected.c_str() || *end != (expected.back() == ',' ? ',' : '\0')) {
      CHECK(word == expected);
    } else {
      CHECK(std::strtod(word.c_str(), nullptr) == Approx(value).epsilon(1e-3));
    }
  }
  CHECK_FALSE(printed_words >> word);
}

}  // namespace
}  // namespace rffstream::testing
