// The warm-up decision: standardization over the window's first data lines,
// lines too large to standardize refused, and the tuned settings.
#include "rffstream/stream/warm_up.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "catch2/catch.hpp"
#include "rffstream/stream/model_options.h"

namespace rffstream {
namespace {

WarmUpLine Data(std::int64_t number, double x, double y) {
  WarmUpLine line;
  line.line_number = number;
  line.kind = WarmUpLine::Kind::kData;
  line.labelled = true;
  line.inputs = {x};
  line.targets = {y};
  return line;
}

Task OneInput() {
  Task task;
  task.num_fields = 2;
  task.target_columns = {1};
  return task;
}

TEST_CASE("Standardization uses the window's first data lines only", "[warm_up]") {
  ModelOptions options;
  options.gamma = 1.0;
  options.ridge = 0.1;
  options.standardize = 2;
  std::vector<WarmUpLine> window = {Data(1, 1, 0), WarmUpLine{2, WarmUpLine::Kind::kNoAnswer},
                                    Data(3, 3, 0), Data(4, 1000, 0)};
  absl::StatusOr<LearnerConfig> config = LearnerConfigFromOptions(options, 1, 1);
  REQUIRE(config.ok());
  const WarmUpDecision decision = DecideOnWarmUp(options, *config, OneInput(), window, 2);
  CHECK(decision.config.features.input_offset == std::vector<double>{2});
  CHECK(decision.config.features.input_scale[0] == Approx(1.0));
  CHECK(decision.refused_lines.empty());
  CHECK_FALSE(decision.tuning.has_value());
}

TEST_CASE("A window line too large to standardize is refused, the rest used", "[warm_up]") {
  ModelOptions options;
  options.gamma = 1.0;
  options.ridge = 0.1;
  options.standardize = 3;
  std::vector<WarmUpLine> window = {Data(1, 1, 0), Data(2, 1e200, 0), Data(3, 3, 0)};
  const WarmUpDecision decision =
      DecideOnWarmUp(options, *LearnerConfigFromOptions(options, 1, 1), OneInput(), window, 3);
  CHECK(decision.refused_lines == std::vector<std::int64_t>{2});
  CHECK(window[1].kind == WarmUpLine::Kind::kNoAnswer);
  CHECK(window[1].text == std::string(WarmUpDecision::kRefusal) +
                              ": its largest number is in column 0");
  CHECK(decision.config.features.input_offset == std::vector<double>{2});
}

TEST_CASE("Automatic gamma and ridge are chosen on the window, or fall back and say so",
          "[warm_up]") {
  ModelOptions options;  // gamma and ridge auto
  options.features = 64;
  std::vector<WarmUpLine> window;
  for (int i = 0; i < 64; ++i) window.push_back(Data(i + 1, 0.1 * i, std::sin(0.3 * i)));
  const WarmUpDecision decision =
      DecideOnWarmUp(options, *LearnerConfigFromOptions(options, 1, 1), OneInput(), window, 64);
  REQUIRE(decision.tuning.has_value());
  CHECK(decision.config.features.gamma == decision.tuning->gamma);
  CHECK(decision.config.ridge == decision.tuning->ridge);
  CHECK(decision.fallback.empty());
  std::vector<WarmUpLine> unlabelled = {Data(1, 1, 0)};
  unlabelled[0].labelled = false;
  const WarmUpDecision fallback =
      DecideOnWarmUp(options, *LearnerConfigFromOptions(options, 1, 1), OneInput(), unlabelled, 1);
  CHECK_FALSE(fallback.tuning.has_value());
  CHECK(fallback.fallback.find("using kernel gaussian") != std::string::npos);
  CHECK(fallback.config.ridge == kFallbackRidge);
}

TEST_CASE("The window's length follows --standardize and the classes", "[warm_up]") {
  ModelOptions options;
  CHECK(WarmUpWindowLines(options, 0) == kDefaultWarmUpLines);
  CHECK(WarmUpWindowLines(options, 26) == 26 * kWarmUpLinesPerClass);
  options.standardize = 50;
  options.given.Add("standardize");
  CHECK(WarmUpWindowLines(options, 26) == 50);
  ModelOptions fixed;
  fixed.gamma = 0.5;
  fixed.ridge = 0.1;
  fixed.standardize = 0;
  CHECK(WarmUpWindowLines(fixed, 3) == 0);
}

}  // namespace
}  // namespace rffstream
