#include "rffstream/task.h"

#include <catch2/catch.hpp>
#include <vector>

namespace rffstream {
namespace {

Task ClassTask() {
  Task task;
  task.column_names = {"a", "id", "b", "class"};
  task.num_fields = 4;
  task.target_columns = {3};
  task.ignored_columns = {1};
  task.num_classes = 5;
  return task;
}

TEST_CASE("A task counts its inputs, targets and outputs", "[task]") {
  const Task task = ClassTask();
  REQUIRE(task.Validate().ok());
  CHECK(task.num_inputs() == 2);
  CHECK(task.num_targets() == 1);
  CHECK(task.num_outputs() == 5);
  CHECK(task.ColumnName(3) == "column 3 'class'");
  Task libsvm;
  libsvm.format = InputFormat::kLibsvm;
  libsvm.libsvm_dimension = 7;
  REQUIRE(libsvm.Validate().ok());
  CHECK(libsvm.num_inputs() == 7);
  CHECK(libsvm.num_outputs() == 1);
}

TEST_CASE("A task names the column of each model input", "[task]") {
  Task task = ClassTask();
  task.categorical_columns = {0};
  task.category_buckets = 4;
  REQUIRE(task.Validate().ok());
  CHECK(task.InputColumns() == std::vector<int>{0, 2});
  CHECK(task.CategoryInputStarts() == std::vector<int>{0});
  // Inputs 0..3 are column 0's buckets; input 4 is column 2.
  CHECK(task.InputName(3) == "column 0 'a'");
  CHECK(task.InputName(4) == "column 2 'b'");
  CHECK(task.InputName(5) == "input 5");
  Task libsvm;
  libsvm.format = InputFormat::kLibsvm;
  libsvm.libsvm_dimension = 7;
  CHECK(libsvm.InputName(0) == "index 1");
  CHECK(libsvm.InputColumns().empty());
}

TEST_CASE("A task's parser reads its layout", "[task]") {
  const Task task = ClassTask();
  std::vector<double> inputs(2), targets(1);
  absl::StatusOr<bool> labelled = task.MakeLineParser()->ParseTargets("1.5,99,2.5,4", inputs, targets);
  REQUIRE(labelled.ok());
  CHECK(*labelled);
  CHECK(inputs == std::vector<double>{1.5, 2.5});
  CHECK(targets == std::vector<double>{4});
  labelled = task.MakeLineParser(LineColumns::kInputsOnly)->ParseTargets("1.5,2.5", inputs, targets);
  REQUIRE(labelled.ok());
  CHECK_FALSE(*labelled);
}

TEST_CASE("Task validation names the problem", "[task][errors]") {
  Task task = ClassTask();
  task.target_columns = {4};
  CHECK(task.Validate().message() == "task: column 4 is outside the 4 fields");
  task = ClassTask();
  task.ignored_columns = {3};
  CHECK(task.Validate().message() == "task: column 3 'class' is named twice");
  task = ClassTask();
  task.target_columns = {0, 3};
  CHECK(task.Validate().message() == "task: a classifier has one class column, not 2");
  task = ClassTask();
  task.num_classes = 1;
  CHECK(task.Validate().message() == "task: num_classes must be 0 (regression) or at least 2, got 1");
  task = ClassTask();
  task.column_names.pop_back();
  CHECK(task.Validate().message() == "task: 3 column names for 4 fields");
  task = ClassTask();
  task.ignored_columns = {0, 1, 2};
  CHECK(task.Validate().message() == "task: no column is left for the inputs");
  CHECK(ParseInputFormat("tsv").status().message() == "unknown input format 'tsv' (csv, dense or libsvm)");
}

}  // namespace
}  // namespace rffstream
