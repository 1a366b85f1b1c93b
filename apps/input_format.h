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

// `can_infer_dimension`: the command can buffer a warm-up window to infer
// libsvm's dimension when --dim is absent.
[[nodiscard]] absl::Status ValidateInputFormatFlags(bool can_infer_dimension);

// libsvm without --dim: the dimension is to be inferred from a warm-up window.
bool InferLibsvmDimension();

// The number of lines the dimension is inferred from.
inline constexpr int kDimensionWarmUpLines = 1000;

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

// The libsvm parser for the largest index seen in `warm_up` (when
// InferLibsvmDimension()). FailedPrecondition if no line has an index.
[[nodiscard]] absl::StatusOr<std::unique_ptr<LineParser>> MakeInferredLibsvmParser(
    const std::vector<std::string>& warm_up);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_INPUT_FORMAT_H_
