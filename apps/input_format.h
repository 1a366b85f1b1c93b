// File: apps/input_format.h
//
// The input format flags (--format, --delimiter, --dim, --ignore, with
// --target/--targets) and the line parser they describe, shared by learn,
// predict and serve so that files, pipes and sockets parse alike.
#ifndef RFFSTREAM_APPS_INPUT_FORMAT_H_
#define RFFSTREAM_APPS_INPUT_FORMAT_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "rffstream/line_parser.h"

namespace rffstream::app {

[[nodiscard]] absl::Status ValidateInputFormatFlags();

// The field delimiter of csv and dense input (for headers and field counts).
char InputDelimiter();

// The parser for a stream given its first data line and header (empty when
// none). A line of exactly `inputs_only_dimension` fields (a model's input
// dimension when predicting, else 0) is taken to have no target column.
// InvalidArgument errors are usage errors; FailedPrecondition ones are about
// the input (too few columns).
[[nodiscard]] absl::StatusOr<std::unique_ptr<LineParser>> MakeLineParser(
    std::string_view first_line, const std::vector<std::string>& header,
    int inputs_only_dimension);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_INPUT_FORMAT_H_
