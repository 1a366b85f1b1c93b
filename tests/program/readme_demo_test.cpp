// The README's demo output is what the demo prints: `./dev.sh demo` runs the
// commands below, and the README quotes their summary lines.
#include <catch2/catch.hpp>
#include <string>

#include "tests/app_process.h"

namespace rffstream::testing {
namespace {

constexpr char kGenerate[] = "generate --series=mackey-glass --samples=20000";
constexpr char kLearn[] = "learn --features=256";

// The README's line that starts with `prefix` (the whole line).
std::string ReadmeLine(const std::string& readme, const std::string& prefix) {
  const std::size_t start = readme.find("\n" + prefix);
  REQUIRE(start != std::string::npos);
  return readme.substr(start + 1, readme.find('\n', start + 1) - start - 1);
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
  for (const char* prefix : {"finished: ", "progressive validation: "}) {
    const std::string line = ReadmeLine(readme, prefix);
    INFO("the README says: " << line);
    CHECK(learned.err.find(line + "\n") != std::string::npos);
  }
}

}  // namespace
}  // namespace rffstream::testing
