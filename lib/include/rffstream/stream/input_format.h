// File: rffstream/stream/input_format.h
//
// What the input options (--format, --delimiter, --dim, --header, --ignore,
// --max_inputs, --target/--targets/--classes) mean: the Task they describe,
// the same for learn, predict and serve so that files, pipes and sockets
// parse alike. A loaded model brings its own Task; the options may then
// repeat it but never contradict it.
#ifndef RFFSTREAM_STREAM_INPUT_FORMAT_H_
#define RFFSTREAM_STREAM_INPUT_FORMAT_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rffstream/stream/options.h"
#include "rffstream/task.h"

namespace rffstream {

// `can_infer_dimension`: the command can buffer a warm-up window to infer
// libsvm's dimension when --dim is absent.
[[nodiscard]] absl::Status ValidateInputOptions(const InputOptions& options,
                                                bool can_infer_dimension);

// libsvm without --dim: for a new model the dimension is inferred from a
// window of lines (input_stage.h).
bool InfersLibsvmDimension(const InputOptions& options);

// The largest feature index in `warm_up`. FailedPrecondition if no line
// has one, or if it is beyond --max_inputs.
[[nodiscard]] absl::StatusOr<int> InferredLibsvmDimension(const InputOptions& options,
                                                          const std::vector<std::string>& warm_up);

// The field delimiter of csv and dense input, for splitting a header.
char InputDelimiter(const InputOptions& options);

// Whether the input starts with a header row: --header or --noheader when
// given, else as the model learned (`model_task`, null for a new model).
bool InputHasHeader(const InputOptions& options, const Task* model_task);

// A UTF-8 byte order mark at the start of the input is not part of the data.
std::string_view WithoutByteOrderMark(std::string_view first_line);

// The task the options describe for a new model, from the header (empty when
// none) and the first data line; `libsvm_dimension` is the inferred one, or
// 0 to take --dim; `num_fields`, when positive, fixes the field count
// instead of the first line (serve's --fields); `head`, the input's first
// bytes when read ahead (text_columns_ahead.h), decides the text columns that the
// first line leaves empty. InvalidArgument errors are
// usage errors; FailedPrecondition ones are about the input (too few
// columns); OutOfRange means this first line is a bad line (more inputs than
// --max_inputs) and the next one may start the stream instead.
[[nodiscard]] absl::StatusOr<Task> TaskFromOptions(const InputOptions& options,
                                                   const ModelOptions& model,
                                                   std::string_view first_line,
                                                   const std::vector<std::string>& header,
                                                   int libsvm_dimension, int num_fields = 0,
                                                   std::string_view head = {});

// The options that contradict a loaded model's task, each as
// "--flag=value (the model has ...)"; empty when they agree.
std::vector<std::string> InputOptionConflicts(const InputOptions& options, const Task& task);



}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_INPUT_FORMAT_H_
