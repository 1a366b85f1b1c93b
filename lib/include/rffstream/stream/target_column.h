// File: rffstream/stream/target_column.h
//
// Resolves a column named on the command line (`--target=last|first|NAME|INDEX`,
// and each entry of --targets and --ignore) to a 0-based column.
#ifndef RFFSTREAM_STREAM_TARGET_COLUMN_H_
#define RFFSTREAM_STREAM_TARGET_COLUMN_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace rffstream {

// `flag` names the flag in messages ("--target"). `header` is empty when the
// input has none; a NAME then is an error. A name the header holds twice is
// ambiguous, an error too.
[[nodiscard]] absl::StatusOr<int> ResolveTargetColumn(std::string_view flag, std::string_view spec,
                                                      int num_fields,
                                                      const std::vector<std::string>& header);

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_TARGET_COLUMN_H_
