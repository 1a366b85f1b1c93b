// File: apps/input_format.h
//
// The input format flags (--format, --delimiter, --dim, --header, --ignore,
// --max_inputs, with --target/--targets/--classes) and the Task they
// describe, shared by learn, predict and serve so that files, pipes and
// sockets parse alike. A loaded model brings its own Task; the flags may then
// repeat it but never contradict it.
#ifndef RFFSTREAM_APPS_INPUT_FORMAT_H_
#define RFFSTREAM_APPS_INPUT_FORMAT_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rffstream/task.h"

namespace rffstream::app {

// `can_infer_dimension`: the command can buffer a warm-up window to infer
// libsvm's dimension when --dim is absent.
[[nodiscard]] absl::Status ValidateInputFormatFlags(bool can_infer_dimension);

// libsvm without --dim: for a new model the dimension is inferred from a
// warm-up window of this many lines.
bool InferLibsvmDimension();
inline constexpr int kDimensionWarmUpLines = 1000;

// The largest feature index in `warm_up`. FailedPrecondition if no line
// has one, or if it is beyond --max_inputs.
[[nodiscard]] absl::StatusOr<int> InferredLibsvmDimension(const std::vector<std::string>& warm_up);

// The field delimiter of csv and dense input, for splitting a header.
char InputDelimiter();

// Whether the input starts with a header row: --header or --noheader when
// given, else as the model learned (`model_task`, null for a new model).
bool InputHasHeader(const Task* model_task);

// A UTF-8 byte order mark at the start of the input is not part of the data.
std::string_view WithoutByteOrderMark(std::string_view first_line);

// The task the flags describe for a new model, from the header (empty when
// none) and the first data line; `libsvm_dimension` is the inferred one, or
// 0 to take --dim; `num_fields`, when positive, fixes the field count
// instead of the first line (serve's --fields). InvalidArgument errors are
// usage errors; FailedPrecondition ones are about the input (too few
// columns); OutOfRange means this first line is a bad line (more inputs than
// --max_inputs) and the next one may start the stream instead.
[[nodiscard]] absl::StatusOr<Task> TaskFromFlags(std::string_view first_line,
                                                 const std::vector<std::string>& header,
                                                 int libsvm_dimension, int num_fields = 0);

// The flags that contradict a loaded model's task, each as
// "--flag=value (the model has ...)"; empty when they agree.
std::vector<std::string> InputFlagConflicts(const Task& task);

// The input's header row against the names the model learned with.
[[nodiscard]] absl::Status CheckHeaderMatchesTask(const std::vector<std::string>& header,
                                                  const Task& task);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_INPUT_FORMAT_H_
