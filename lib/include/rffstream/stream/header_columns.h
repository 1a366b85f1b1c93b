// File: rffstream/stream/header_columns.h
//
// A loaded model's input may start with a header row: the columns it names
// say which lines follow — all the model's columns, all but the targets, or
// the inputs alone (new data to predict) — or that the input is not the
// model's.
#ifndef RFFSTREAM_STREAM_HEADER_COLUMNS_H_
#define RFFSTREAM_STREAM_HEADER_COLUMNS_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "rffstream/task.h"

namespace rffstream {

// The input's header row against the names the model learned with: which
// of the model's columns the lines hold, or an error naming both headers
// and `model_source` (the model's file).
[[nodiscard]] absl::StatusOr<LineColumns> HeaderColumns(const std::vector<std::string>& header,
                                                        const Task& task,
                                                        std::string_view model_source);

// The names of a task's `columns` (empty when it has no header).
std::vector<std::string> ColumnNames(const Task& task, LineColumns columns);

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_HEADER_COLUMNS_H_
