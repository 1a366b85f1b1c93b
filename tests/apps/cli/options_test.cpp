// The command line read once into option values: each flag lands in its
// struct, and the flags the user gave are noted (even at their default).
#include <string>
#include <vector>

#include "absl/flags/parse.h"
#include "catch2/catch.hpp"
#include "cli/command_line.h"
#include "cli/flags.h"

namespace rffstream::app {
namespace {

StreamOptions Parse(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), "rffstream");
  RecordGivenOptions(arguments);
  std::vector<char*> pointers;
  for (std::string& argument : arguments) pointers.push_back(argument.data());
  absl::ParseCommandLine(static_cast<int>(pointers.size()), pointers.data());
  absl::StatusOr<StreamOptions> options = StreamOptionsFromFlags();
  REQUIRE(options.ok());
  return *std::move(options);
}

// The library's option structs are what an embedder's Stream starts from
// (rffstream/stream.h): their defaults must be the flags', or the same
// options would build another model than `learn` does.
TEST_CASE("The flags' defaults are the library's options' defaults", "[options]") {
  const StreamOptions options = Parse({});
  CHECK(options.input_format == InputOptions());
  CHECK(options.model == ModelOptions());
}

TEST_CASE("Flags become option values, and the given ones are noted", "[options]") {
  const StreamOptions options =
      Parse({"--features=64", "--gamma=0.5", "--standardize=256", "--classes=3", "--header",
             "--block=8", "--save=m.rff", "--save_every=100", "--listen=unix:/tmp/s",
             "--max_line_bytes=4096", "--input=data.csv"});
  CHECK(options.input == "data.csv");
  CHECK(options.model.features == 64);
  CHECK(options.model.gamma == 0.5);
  CHECK(options.model.given.Has("features"));
  CHECK(options.model.given.Has("standardize"));  // given at its default value
  CHECK_FALSE(options.model.given.Has("ridge"));
  CHECK(options.input_format.classes == 3);
  CHECK(options.input_format.header);
  CHECK(options.input_format.given.Has("classes"));
  CHECK(options.input_format.max_line_bytes == 4096);
  CHECK(options.output.block == 8);
  CHECK(options.output.block_given);
  CHECK(options.checkpoint.save == "m.rff");
  CHECK(options.checkpoint.save_every == 100);
  CHECK(options.server.listen == "unix:/tmp/s");
  CHECK_FALSE(options.server.max_connections_given);
}

}  // namespace
}  // namespace rffstream::app
