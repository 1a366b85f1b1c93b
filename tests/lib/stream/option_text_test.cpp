// The model options as text: the one parser and printer that the command
// line's flags and Python's keywords go through.
#include "rffstream/stream/option_text.h"

#include <string>

#include "catch2/catch.hpp"

namespace rffstream {
namespace {

TEST_CASE("Each option's text reads back to itself", "[option_text]") {
  const std::pair<std::string_view, std::string_view> spelled[] = {
      {"map", "pair"},       {"kernel", "matern32"},     {"kernel", "auto"},
      {"sampler", "qmc"},    {"lengthscales", "1,2.5"},  {"lengthscales", ""},
      {"gamma", "0.125"},    {"gamma", "auto"},          {"ridge", "1e-08"},
      {"ridge", "auto"},     {"forget", "0.999"},        {"forget", "auto"},
      {"precision", "float32"}, {"loss", "hinge"}};
  for (const auto& [name, text] : spelled) {
    INFO(name << "=" << text);
    ModelOptions options;
    REQUIRE(SetModelOption(options, name, text).ok());
    CHECK(ModelOptionText(options, name) == text);
  }
  ModelOptions options;
  REQUIRE(SetModelOption(options, "gamma", "0.1").ok());
  CHECK(options.gamma == 0.1);
  REQUIRE(SetModelOption(options, "kernel", "auto").ok());
  CHECK_FALSE(options.kernel.has_value());
  REQUIRE(SetModelOption(options, "lengthscales", "1,2").ok());
  CHECK(options.lengthscales == std::vector<double>{1, 2});
}

TEST_CASE("The defaults print as the command line's flags spell them", "[option_text]") {
  const ModelOptions defaults;
  CHECK(ModelOptionText(defaults, "map") == "phase");
  CHECK(ModelOptionText(defaults, "kernel") == "gaussian");
  CHECK(ModelOptionText(defaults, "sampler") == "iid");
  CHECK(ModelOptionText(defaults, "lengthscales").empty());
  CHECK(ModelOptionText(defaults, "gamma") == "auto");
  CHECK(ModelOptionText(defaults, "ridge") == "auto");
  CHECK(ModelOptionText(defaults, "forget") == "auto");
  CHECK(ModelOptionText(defaults, "precision") == "float32");
  CHECK(ModelOptionText(defaults, "loss") == "squared");
}

TEST_CASE("A text that is not a value of its option is refused, naming both", "[option_text]") {
  ModelOptions options;
  CHECK(SetModelOption(options, "ridge", "lots").message() ==
        "--ridge=lots: expected a number or auto");
  CHECK(SetModelOption(options, "forget", "slow").message() ==
        "--forget=slow: expected a number in (0, 1] or auto");
  CHECK(SetModelOption(options, "lengthscales", "1,x").message() ==
        "--lengthscales=1,x: 'x' is not a number");
  CHECK(SetModelOption(options, "precision", "float16").message() ==
        "--precision=float16: expected float32 or float64");
  CHECK(SetModelOption(options, "kernel", "rbf").message().find("unknown kernel 'rbf'") !=
        std::string::npos);
  CHECK(SetModelOption(options, "colour", "red").message() == "unknown model option 'colour'");
  CHECK(options == ModelOptions());  // nothing refused was set
}

}  // namespace
}  // namespace rffstream
