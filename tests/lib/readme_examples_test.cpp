// The README shows real, tested code: its example must be the file that the
// package tests build and run, character for character.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  REQUIRE(file.good());
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST_CASE("README embeds the embedding example verbatim", "[readme]") {
  const std::string readme = ReadFile(std::string(RFFSTREAM_SOURCE_DIR) + "/README.md");
  const std::string example =
      ReadFile(std::string(RFFSTREAM_SOURCE_DIR) + "/examples/embedding_example.cpp");
  CHECK(readme.find("```cpp\n" + example + "```") != std::string::npos);
}

}  // namespace
