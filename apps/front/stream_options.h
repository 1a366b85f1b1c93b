// File: apps/front/stream_options.h
//
// The checks every command that runs a stream (learn, predict, serve) makes
// on its options before reading any input, so that the same flags mean the
// same and are refused the same everywhere.
#ifndef RFFSTREAM_APPS_STREAM_OPTIONS_H_
#define RFFSTREAM_APPS_STREAM_OPTIONS_H_

#include "absl/status/status.h"
#include "core/options.h"

namespace rffstream::app {

// InvalidArgument naming the flag, or OK. `can_infer_dimension`: the input
// is a file or pipe whose first lines may settle the libsvm dimension (not
// so for serve, whose clients each start anew).
[[nodiscard]] absl::Status ValidateStreamOptions(const StreamOptions& options,
                                                 bool can_infer_dimension);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_STREAM_OPTIONS_H_
