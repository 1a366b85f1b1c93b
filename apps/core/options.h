// File: apps/core/options.h
//
// The commands' options as plain values, one struct per concern. The flags
// are read once, in the *_flags.cpp files (OptionsFromFlags); every other
// part of the app layer takes these values and never reads a flag, so the
// stages can be built and tested with any options.
#ifndef RFFSTREAM_APPS_OPTIONS_H_
#define RFFSTREAM_APPS_OPTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "rffstream/stream/options.h"

namespace rffstream::app {

// What a stream's answers hold and how its progress and errors are shown.
struct OutputOptions {
  std::string predictions;  // learn: "" = none, "-" = standard output
  std::string metrics_out;  // the learning curve as JSON lines: "" = none
  bool quiet = false;
  bool strict = false;
  std::int64_t progress_every = 0;
  int max_error_messages = 10;
  int block = 1;
  bool block_given = false;
  bool variance = false;
  bool clip_predictions = true;  // within the learned targets' widened range
  bool tune_report = false;
};

struct CheckpointOptions {
  std::string load;
  std::string save;
  std::int64_t save_every = 0;
  double save_interval = 0.0;
};

// serve closes a connection that made no progress this long (line_server.h).
inline constexpr double kDefaultIdleTimeoutSeconds = 300;

struct ServerOptions {
  std::string listen = "127.0.0.1:7878";
  std::string port_file;
  int max_connections = 1024;
  bool max_connections_given = false;
  double idle_timeout = kDefaultIdleTimeoutSeconds;
  int fields = 0;
  bool follow = false;  // answer with the newest model at --load, learn nothing
};

// `export`: the model file, the output format, and whether P goes with it.
struct ExportOptions {
  std::string load;
  std::string format;  // "" or "json"
  bool covariance = false;
};

// `merge`: the shards' checkpoints, the one they all started from (empty:
// none, they learned from scratch) and where the merged model goes.
struct MergeOptions {
  std::vector<std::string> shards;
  std::string base;
  std::string save;
};

// `generate`: which series, how many lines, how many past values a line.
struct GenerateOptions {
  std::string series = "mackey-glass";
  int samples = 10000;
  int embedding = 7;
};

// `mpirun -np N rffstream learn`: how often the ranks merge what they learned.
// --threads above this is a typo, not a machine.
inline constexpr int kMaxThreads = 1024;

struct ParallelOptions {
  std::int64_t sync_every = 0;  // samples per rank between merges; 0 = at the end only
  bool sync_every_given = false;
  // Between merges a rank predicts with the last merged model and only
  // gathers its samples (--rank_model=merged), rather than learning them
  // into a model of its own (own).
  bool ranks_gather_only = false;
  int threads = 0;  // for each sample's work; 0 = chosen from D and the cores
  bool threads_given = false;
};

// Everything `learn`, `predict` and `serve` are told.
struct StreamOptions {
  std::string input = "-";
  InputOptions input_format;
  ModelOptions model;
  OutputOptions output;
  CheckpointOptions checkpoint;
  ServerOptions server;
  ParallelOptions parallel;
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_OPTIONS_H_
