// The input format flags (learn, predict, serve).
#include <cstdint>
#include <string>

#include "absl/flags/declare.h"
#include "absl/strings/str_cat.h"
#include "cli/flags.h"

ABSL_FLAG(std::string, format, "",
          "learn, predict, serve: the input format, csv (the default: delimited numbers), dense "
          "(numbers separated by spaces or tabs) or libsvm (\"label idx:val ...\", 1-based "
          "indices; needs --dim). export: json (the default)");
ABSL_FLAG(std::string, delimiter, ",", "csv field delimiter: one character, or tab");
ABSL_FLAG(int, dim, 0, "libsvm: the number of inputs (indices 1..dim)");
ABSL_FLAG(bool, header, false, "the first line is a header row of column names");
ABSL_FLAG(std::string, target, "last",
          "target column: last, first, a 0-based index, or a name from the header; "
          "the other columns are the inputs. A line with an empty target field is "
          "predicted but not learned from");
ABSL_FLAG(std::string, ignore, "",
          "csv/dense: columns to skip, comma-separated names (from the header) or 0-based indices");
ABSL_FLAG(std::string, categorical, "auto",
          "csv/dense: text (category) columns, each value its own input direction: auto (the "
          "columns whose first data line holds text, or in a file whose first value after an "
          "empty one does), none, or comma-separated names or 0-based indices");
ABSL_FLAG(int, category_buckets, 64,
          "the inputs each text column takes; a value sets two of them, picked by its hash, so "
          "values never seen before need no new state");
ABSL_FLAG(int, max_inputs, 100000,
          "the most inputs a line may have: a wider first line (or a libsvm dimension beyond "
          "it) is rejected rather than building a model nobody can afford");

ABSL_FLAG(int64_t, max_line_bytes, 1 << 20, "longer input lines are rejected");
ABSL_DECLARE_FLAG(int, classes);
ABSL_DECLARE_FLAG(std::string, targets);

namespace rffstream::app {

absl::StatusOr<InputOptions> InputOptionsFromFlags() {
  InputOptions options;
  const std::string format = absl::GetFlag(FLAGS_format);
  if (!format.empty()) {
    absl::StatusOr<InputFormat> parsed = ParseInputFormat(format);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--format=", format, ": expected csv, dense or libsvm"));
    }
    options.format = *parsed;
  }
  options.delimiter = absl::GetFlag(FLAGS_delimiter);
  options.dim = absl::GetFlag(FLAGS_dim);
  options.header = absl::GetFlag(FLAGS_header);
  options.target = absl::GetFlag(FLAGS_target);
  options.targets = absl::GetFlag(FLAGS_targets);
  options.ignore = absl::GetFlag(FLAGS_ignore);
  options.categorical = absl::GetFlag(FLAGS_categorical);
  options.category_buckets = absl::GetFlag(FLAGS_category_buckets);
  options.classes = absl::GetFlag(FLAGS_classes);
  options.max_inputs = absl::GetFlag(FLAGS_max_inputs);
  options.max_line_bytes = absl::GetFlag(FLAGS_max_line_bytes);
  for (const auto* flag : {&FLAGS_format, &FLAGS_delimiter, &FLAGS_target, &FLAGS_targets, &FLAGS_ignore,
                            &FLAGS_categorical}) {
    NoteIfGiven(*flag, options.given);
  }
  NoteIfGiven(FLAGS_dim, options.given);
  NoteIfGiven(FLAGS_category_buckets, options.given);
  NoteIfGiven(FLAGS_header, options.given);
  NoteIfGiven(FLAGS_classes, options.given);
  return options;
}

}  // namespace rffstream::app
