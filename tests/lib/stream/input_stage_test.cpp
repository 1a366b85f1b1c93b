// The input stage alone: the header row, the task decided from the first
// data line (text columns, targets), from a window of lines (libsvm's
// dimension, serve's shape), a loaded model's header, and each line parsed.
#include "rffstream/stream/input_stage.h"

#include <string>
#include <vector>

#include "catch2/catch.hpp"

namespace rffstream {
namespace {

InputStage::Settings CsvWithHeader() {
  InputStage::Settings settings;
  settings.input.header = true;
  return settings;
}

TEST_CASE("The header and the first data line decide the task, lines parse into numbers",
          "[input_stage]") {
  InputStage stage(CsvWithHeader());
  REQUIRE(stage.ExpectsHeader());
  const absl::StatusOr<std::optional<std::string>> header = stage.ReadHeader("temp,city,load");
  REQUIRE(header.ok());
  CHECK_FALSE(header->has_value());
  REQUIRE(stage.DecideFrom("1.5,paris,3").ok());
  REQUIRE(stage.decided());
  const Task& task = stage.task();
  CHECK(task.column_names == std::vector<std::string>{"temp", "city", "load"});
  CHECK(task.target_columns == std::vector<int>{2});
  CHECK(task.categorical_columns == std::vector<int>{1});  // text on the first data line
  CHECK(task.num_inputs() == 1 + task.category_buckets);

  ParsedLine parsed;
  stage.Parse("2.5,oslo,4", parsed);
  CHECK(parsed.kind == ParsedLine::Kind::kValues);
  CHECK(parsed.labelled);
  CHECK(stage.inputs()[0] == 2.5);
  CHECK(stage.targets()[0] == 4.0);
  stage.Parse("2.5,oslo", parsed);  // no target: a line to predict
  CHECK(parsed.kind == ParsedLine::Kind::kMalformed);
  stage.Parse("warm,oslo,4", parsed);
  CHECK(parsed.kind == ParsedLine::Kind::kMalformed);
  CHECK(parsed.error.find("'warm' is not a number") != std::string::npos);
  stage.Parse(" \t", parsed);
  CHECK(parsed.kind == ParsedLine::Kind::kBlank);
}

TEST_CASE("A header that names a column twice is a warning, not an error", "[input_stage]") {
  InputStage stage(CsvWithHeader());
  const absl::StatusOr<std::optional<std::string>> header = stage.ReadHeader("a,a,y");
  REQUIRE(header.ok());
  REQUIRE(header->has_value());
  CHECK(**header == "the header names more than one column 'a'");
}

TEST_CASE("libsvm's dimension comes from a window of lines", "[input_stage]") {
  InputStage::Settings settings;
  settings.input.format = rffstream::InputFormat::kLibsvm;
  InputStage stage(settings);
  REQUIRE(stage.NeedsDimensionWindow());
  REQUIRE(stage.DecideFromWindow({"1 1:0.5 3:2", "0 2:1", "1 7:1"}).ok());
  CHECK(stage.task().num_inputs() == 7);
  ParsedLine parsed;
  stage.Parse("2 1:1 7:3", parsed);
  REQUIRE(parsed.kind == ParsedLine::Kind::kValues);
  CHECK(stage.inputs()[6] == 3.0);
  CHECK(stage.targets()[0] == 2.0);
}

TEST_CASE("serve's shape: the window's most common field count, not the first line's",
          "[input_stage]") {
  InputStage::Settings settings;
  settings.reads_header = false;
  settings.shape_from_window = true;
  InputStage stage(settings);
  REQUIRE(stage.NeedsShapeWindow());
  const absl::StatusOr<std::pair<int, int>> shape =
      stage.DecideFromShapeWindow({"1,2", "1,2,3", "4,5,6", "7,8,9"});
  REQUIRE(shape.ok());
  CHECK(*shape == std::pair<int, int>(3, 3));
  CHECK(stage.task().num_inputs() == 2);
}

TEST_CASE("A loaded model's header must name its columns", "[input_stage]") {
  InputStage first(CsvWithHeader());
  REQUIRE(first.ReadHeader("x,y,target").ok());
  REQUIRE(first.DecideFrom("1,2,3").ok());
  InputStage resumed(CsvWithHeader());
  resumed.Resume(first.task(), "model.rff");
  CHECK(resumed.ReadHeader("x,y,target").ok());
  InputStage other(CsvWithHeader());
  other.Resume(first.task(), "model.rff");
  const absl::StatusOr<std::optional<std::string>> mismatch = other.ReadHeader("a,b,c");
  REQUIRE_FALSE(mismatch.ok());
  CHECK(mismatch.status().code() == absl::StatusCode::kFailedPrecondition);
  CHECK(std::string(mismatch.status().message()).find(
            "the header (a, b, c) is not the one the model from model.rff learned with (x, y, "
            "target)") !=
        std::string::npos);
}

}  // namespace
}  // namespace rffstream
