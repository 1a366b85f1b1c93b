// Target encoding: regression targets pass through, a class becomes +1 at
// its output and -1 elsewhere, and the answer is the largest output.
#include "rffstream/stream/task_outputs.h"

#include <cmath>
#include <limits>
#include <vector>

#include "catch2/catch.hpp"

namespace rffstream {
namespace {

Task Classifier(int classes) {
  Task task;
  task.num_classes = classes;
  task.num_fields = 2;
  task.target_columns = {1};
  return task;
}

TEST_CASE("A class is encoded one-vs-rest, regression targets pass through", "[task_outputs]") {
  std::vector<float> encoded(4);
  const std::vector<double> label = {2};
  EncodeTargets<float>(Classifier(4), label, encoded);
  CHECK(encoded == std::vector<float>{-1, -1, 1, -1});
  Task regression;
  regression.num_fields = 3;
  regression.target_columns = {1, 2};
  std::vector<double> targets(2);
  const std::vector<double> values = {0.25, -3.5};
  EncodeTargets<double>(regression, values, targets);
  CHECK(targets == values);
}

TEST_CASE("The predicted class is the largest output, the first of ties", "[task_outputs]") {
  CHECK(PredictedClass<double>(std::vector<double>{-0.9, 0.3, 0.1}) == 1);
  CHECK(PredictedClass<float>(std::vector<float>{0.5f, 0.5f, -1.f}) == 0);
}

TEST_CASE("Labels that are not classes are named", "[task_outputs]") {
  const Task task = Classifier(3);
  CHECK_FALSE(InvalidClassLabel(task, 0).has_value());
  CHECK_FALSE(InvalidClassLabel(task, 2).has_value());
  CHECK(*InvalidClassLabel(task, 3) == "class label 3 is not an integer in [0, 3) (--classes)");
  CHECK(*InvalidClassLabel(task, 1.5) == "class label 1.5 is not an integer in [0, 3) (--classes)");
  CHECK(InvalidClassLabel(task, -1).has_value());
  CHECK(InvalidClassLabel(task, std::nan("")).has_value());
  Task regression;
  CHECK_FALSE(InvalidClassLabel(regression, 1.5).has_value());
}

TEST_CASE("AllFinite finds NaN and infinity", "[task_outputs]") {
  CHECK(AllFinite<double>(std::vector<double>{1, -2, 0}));
  CHECK_FALSE(AllFinite<double>(std::vector<double>{1, std::numeric_limits<double>::infinity()}));
  CHECK_FALSE(AllFinite<float>(std::vector<float>{std::nanf("")}));
}

}  // namespace
}  // namespace rffstream
