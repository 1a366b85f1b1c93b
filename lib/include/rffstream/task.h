// File: rffstream/task.h
//
// What a model learns: how its input lines are laid out (format, columns,
// which are targets) and what its outputs mean (regression targets, or the
// classes of a one-vs-rest classifier). Checkpoints carry the task, so a
// loaded model reads the same input the same way and its outputs keep their
// meaning, whatever flags the next command is given.
//
//   rffstream::Task task;
//   task.num_fields = 17;          // 16 inputs and the class
//   task.target_columns = {16};
//   task.num_classes = 26;
//   absl::Status valid = task.Validate();
//   std::unique_ptr<rffstream::LineParser> parser = task.MakeLineParser();
//   config.num_outputs = task.num_outputs();   // 26
#ifndef RFFSTREAM_TASK_H_
#define RFFSTREAM_TASK_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rffstream/line_parser.h"

namespace rffstream {

enum class InputFormat {
  kCsv,     // delimited numbers, fields may be quoted
  kDense,   // numbers separated by runs of spaces or tabs
  kLibsvm,  // "label idx:val ...", 1-based indices
};

std::string_view InputFormatName(InputFormat format);
[[nodiscard]] absl::StatusOr<InputFormat> ParseInputFormat(std::string_view name);

// Which columns a line of a task's input holds.
enum class LineColumns {
  kAll,             // every column the task learned from
  kWithoutTargets,  // every column but the targets (new data to predict)
  kInputsOnly,      // the input columns alone (no target or ignored column)
  kAnyLayout,       // any of the three, told apart by each line's field count
};

struct Task {
  // A category column's inputs unless the task says otherwise: 64 buckets
  // keep two values apart in both directions with probability 1 - 2/64²
  // (each value takes two), at 64 inputs of the projection per column.
  static constexpr int kDefaultCategoryBuckets = 64;
  static constexpr int kMaxCategoryBuckets = 1 << 16;

  // Input lines.
  InputFormat format = InputFormat::kCsv;
  char delimiter = ',';  // kCsv only
  bool header = false;   // the input starts with a header row
  std::vector<std::string> column_names;  // the header's names, or empty
  // kCsv and kDense: fields per line, and which of them are targets (in
  // output order) or ignored; every other field is an input, in order.
  int num_fields = 0;
  std::vector<int> target_columns;
  std::vector<int> ignored_columns;
  // Input columns read as text (categories, csv_line_parser.h): each takes
  // category_buckets inputs, where a value sets two hashed directions.
  std::vector<int> categorical_columns;
  int category_buckets = kDefaultCategoryBuckets;
  int libsvm_dimension = 0;  // kLibsvm: the number of inputs
  // Outputs: 0 for regression, one output per target column; K >= 2 for a
  // classifier whose one target column holds the class 0..K-1, learned
  // one-vs-rest as K outputs.
  int num_classes = 0;
  // The classes' labels as text, in class order ("cat", "dog"; "10", "20"),
  // or empty: the labels are 0..K-1. Kept so that a model learned on other
  // labels (Python's Classifier) answers with them again after a load.
  std::vector<std::string> class_labels;
  // The labels were text even where they read as numbers ("1", "007":
  // Python's str labels), and load back as text (format 17).
  bool text_class_labels = false;
  // Settings that the first lines of the data decided (0 / false: none):
  // the window that standardized the inputs, and the bandwidth, ridge and
  // kernel chosen on it. Kept so that repeating the same flags is recognized.
  int standardize_lines = 0;
  bool gamma_from_warm_up = false;
  bool ridge_from_warm_up = false;
  bool kernel_from_warm_up = false;
  // The model starts over when the stream drifts (--forget=auto).
  bool drift_from_stream = false;
  // A regression's targets as the model learns them: y - target_offsets[o],
  // the mean of output o on the warm-up window, added back to its answers
  // (empty: as given). Far from zero, targets would otherwise push their
  // mean through the ridge on the intercept and the window's tuning, and
  // float32's errors would lose the digits of their spread.
  std::vector<double> target_offsets;

  bool operator==(const Task&) const = default;

  int num_inputs() const;        // the model's inputs (a category column counts its buckets)
  int num_input_columns() const;  // the columns that hold inputs
  bool IsCategorical(int column) const;
  // The columns that hold inputs, in order (empty for libsvm).
  std::vector<int> InputColumns() const;
  // The first input of each category column's category_buckets inputs, in
  // column order (inputs are laid out column by column).
  std::vector<int> CategoryInputStarts() const;
  int num_targets() const;  // label columns per line
  int num_outputs() const;  // the learner's outputs
  bool is_classifier() const { return num_classes > 0; }

  // Names a column for messages: its header name if any, else its index.
  std::string ColumnName(int column) const;
  // Names the column that holds the model's input `input` (every bucket of a
  // category column names it), or its libsvm index.
  std::string InputName(int input) const;

  // Names the first inconsistency (columns out of range or named twice, a
  // classifier with several targets, ...).
  [[nodiscard]] absl::Status Validate() const;

  // The number of fields of a line that holds `columns`.
  int NumFields(LineColumns columns) const;

  // The parser of this layout, for lines that hold `columns` (lines sent for
  // prediction may leave out the targets, or carry the inputs alone).
  // REQUIRES: Validate() is ok.
  std::unique_ptr<LineParser> MakeLineParser(LineColumns columns = LineColumns::kAll) const;
};

}  // namespace rffstream

#endif  // RFFSTREAM_TASK_H_
