// File: rffstream/stream/input_columns.h
//
// Which columns the input flags name: the targets (--target, --targets), the
// ignored ones (--ignore) and the text ones (--categorical, or found by
// "auto" on the first data line and the input's head), by header name or
// 0-based index, each named once.
#ifndef RFFSTREAM_STREAM_PIPELINE_INPUT_COLUMNS_H_
#define RFFSTREAM_STREAM_PIPELINE_INPUT_COLUMNS_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "rffstream/stream/options.h"
#include "rffstream/task.h"

namespace rffstream {

// The target columns, in output order.
absl::StatusOr<std::vector<int>> TargetColumns(const InputOptions& options, int num_fields,
                                               const std::vector<std::string>& header);
absl::StatusOr<std::vector<int>> IgnoredColumns(const InputOptions& options, int num_fields,
                                                const std::vector<std::string>& header);
// The input columns read as text: those --categorical names, or with
// "auto" those whose field on `first_line` is neither a number nor a
// missing value, and those it leaves missing whose first value in `head`
// is text (text_columns_ahead.h). OutOfRange when the target's field is text:
// that line is no data.
absl::StatusOr<std::vector<int>> CategoricalColumns(const InputOptions& options, const Task& task,
                                                    std::string_view first_line,
                                                    std::string_view head);

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_PIPELINE_INPUT_COLUMNS_H_
