// File: apps/commands/learn_command.h
//
// `rffstream learn`: reads a CSV stream, predicts each line before learning
// from it, writes the predictions and prints running metrics.
#ifndef RFFSTREAM_APPS_LEARN_COMMAND_H_
#define RFFSTREAM_APPS_LEARN_COMMAND_H_

#include <optional>

#include "front/learn_run.h"
#include "core/line_reader.h"
#include "absl/status/status.h"
#include "core/options.h"
#include "rffstream/checkpoint.h"

namespace rffstream::app {

// Runs with the parsed command-line flags; returns how it ended (core/command_status.h).
absl::Status RunLearnCommand(const StreamOptions& options);

// `rffstream predict --load=FILE`: the same input handling, but the model
// only predicts; labelled lines are scored, never learned from.
absl::Status RunPredictCommand(const StreamOptions& options);

// One process's part of a data-parallel `learn` (commands/distributed_learn.h):
// `options` name this process's input and predictions; it keeps `share` of
// the input's lines, starts from `start` when given (else as --load says),
// and learns in step with `coordinator`. Returns how it ended.
template <class Real>
absl::Status RunLearnPart(const StreamOptions& options, const LineReader::Share& share,
                 std::optional<BasicCheckpoint<Real>> start, RunCoordinator<Real>& coordinator);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_LEARN_COMMAND_H_
