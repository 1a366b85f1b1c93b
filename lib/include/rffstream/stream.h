// File: rffstream/stream.h
//
// The model that `rffstream learn` builds, for a program that embeds the
// library: lines of text in (CSV or libsvm, as the options say), each line's
// outcome out through an OutcomeSink (rffstream/stream/line_outcome.h), and
// behind them the whole stream pipeline (rffstream/stream/stream_pipeline.h):
// the warm-up window's standardization and automatic kernel, bandwidth and
// ridge, text columns and missing values, target encoding, the learner of
// the options' precision, drift tracking, running metrics and checkpoints.
// The command line, serve and Python drive that same pipeline, so the same
// options on the same lines give the same answers and the same checkpoint,
// to the bit.
//
//   rffstream::PipelineSettings settings;  // learn's defaults; .input, .model as its flags
//   auto stream = rffstream::Stream::Create(settings, sink);  // sink: an OutcomeSink
//   for (const std::string& line : lines) status = (*stream)->Push(line);
//   status = (*stream)->Finish();  // a window still filling decides with what it has
//   status = (*stream)->Save("model.rff");
//
// The options an embedder sets count as given, as a user's flags do
// (NoteChangedOptions). The precision (ModelOptions::precision, or a loaded
// model's) is chosen once, here. `learn` reads the first 1 MiB of a regular
// file ahead, to find text columns the first data line leaves empty: an
// embedder reading a file gets the same decisions by passing those bytes as
// settings.input_head. A low-latency host that has numbers rather than text
// uses the learner itself (rffstream/learner.h); one loaded from a
// checkpoint of this pipeline answers in the targets' units after
// AddTargetOffsets (rffstream/stream/task_outputs.h).
#ifndef RFFSTREAM_STREAM_H_
#define RFFSTREAM_STREAM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rffstream/classification_metrics.h"
#include "rffstream/regression_metrics.h"
#include "rffstream/stream/line_outcome.h"
#include "rffstream/stream/options.h"
#include "rffstream/stream/stream_pipeline.h"
#include "rffstream/task.h"

namespace rffstream {

class Stream {
 public:
  virtual ~Stream() = default;

  // A new model, of settings.model.precision. InvalidArgument: the options
  // cannot work together, as `learn` would refuse them (ResourceExhausted:
  // the model would not fit the memory limit). `sink` must outlive the
  // stream.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<Stream>> Create(PipelineSettings settings,
                                                                      OutcomeSink& sink);
  // The model saved at `path`, of its own precision, to go on with; the
  // options may only repeat what it holds (InvalidArgument), DataLoss: the
  // file cannot be read as a checkpoint.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<Stream>> Load(const std::string& path,
                                                                    PipelineSettings settings,
                                                                    OutcomeSink& sink);

  // The next line (without its newline), numbered from 1 in the order
  // pushed, a header row too; one longer than input.max_line_bytes is a bad
  // line. A bad line is an outcome, not an error. An error (its codes:
  // StreamPipeline::Push) ends the stream: every later Push or Finish
  // returns it.
  [[nodiscard]] virtual absl::Status Push(std::string_view line) = 0;
  // The end of the stream: a block still open is learned, a warm-up window
  // still filling decides with the lines it holds.
  [[nodiscard]] virtual absl::Status Finish() = 0;
  // The checkpoint, written atomically (FailedPrecondition: no model yet).
  [[nodiscard]] virtual absl::Status Save(const std::string& path) const = 0;

  virtual int bytes_per_number() const = 0;  // 4: float32, 8: float64
  virtual bool has_model() const = 0;
  virtual const Task& task() const = 0;
  virtual std::int64_t samples_learned() const = 0;
  // The progressive (a-priori) metrics: of the first target, or a classifier's.
  virtual const RegressionMetrics& metrics() const = 0;
  virtual const ClassificationMetrics& classification() const = 0;
};

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_H_
