// File: apps/learn_command.h
//
// `rffstream learn`: reads a CSV stream, predicts each line before learning
// from it, writes the predictions and prints running metrics.
#ifndef RFFSTREAM_APPS_LEARN_COMMAND_H_
#define RFFSTREAM_APPS_LEARN_COMMAND_H_

#include "options.h"

namespace rffstream::app {

// Runs with the parsed command-line flags; returns the process exit code.
int RunLearnCommand(const StreamOptions& options);

// `rffstream predict --load=FILE`: the same input handling, but the model
// only predicts; labelled lines are scored, never learned from.
int RunPredictCommand(const StreamOptions& options);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_LEARN_COMMAND_H_
