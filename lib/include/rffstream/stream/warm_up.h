// File: rffstream/stream/warm_up.h
//
// The warm-up stage: what the first lines of a stream decide before a model
// exists — the inputs' standardization and the automatic kernel, bandwidth
// and ridge (--standardize, --kernel/--gamma/--ridge=auto) — shared by
// `learn` and `serve`, so that both build the same model from the same lines.
#ifndef RFFSTREAM_STREAM_WARM_UP_H_
#define RFFSTREAM_STREAM_WARM_UP_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rffstream/stream/options.h"
#include "rffstream/input_statistics.h"
#include "rffstream/learner_config.h"
#include "rffstream/task.h"
#include "rffstream/warm_up_tuning.h"

namespace rffstream {

// A line held back while the model does not exist: its text while the
// input format is undecided, then its numbers, or only its place (a blank or
// bad line, answered in its turn).
struct WarmUpLine {
  enum class Kind {
    kUnparsed,  // `text` is the line
    kNoAnswer,  // `text` says why (empty for a blank line)
    kData,      // inputs and, when labelled, targets
  };
  std::int64_t line_number = 0;
  Kind kind = Kind::kUnparsed;
  bool labelled = false;
  std::vector<double> inputs;
  std::vector<double> targets;  // the labels as read (a class, or the target values)
  std::string text;
};

struct WarmUpDecision {
  LearnerConfig config;
  // A regression's targets' means on the window when it standardizes
  // (Task::target_offsets), else empty.
  std::vector<double> target_offsets;
  // Lines of the window whose inputs are too large to standardize: refused
  // (they become kNoAnswer), with this reason.
  std::vector<std::int64_t> refused_lines;
  static constexpr char kRefusal[] = "an input is too large to standardize (its square overflows)";
  std::optional<TuningResult> tuning;  // when the settings were chosen
  std::string fallback;  // why they could not be, with what is used instead
};

// Numbers too large to square would spoil every grid point of the tuning
// (and the standardization): a window line that holds one is refused. A
// missing value (NaN) is tame.
bool TameNumbers(std::span<const double> values);

// The inputs' standardization from `statistics`, a category column's
// buckets left as they are.
void SetStandardization(const Task& task, const InputStatistics& statistics,
                        FeatureMapConfig& features);

// What the options leave to the warm-up window's leave-one-out tuning.
TuningRequest TuningRequestFor(const ModelOptions& options, const Task& task);

// Decides on the first `window_lines` data lines of `window` (refused lines
// marked) from `config`, the options' configuration for the task.
WarmUpDecision DecideOnWarmUp(const ModelOptions& options, LearnerConfig config, const Task& task,
                              std::vector<WarmUpLine>& window, int window_lines);

// The decision as lines for the transport's log (warm_up_report.cpp): why
// the settings fell back (always), the tuned line (unless `quiet`), and with
// `table` every grid point's error. Empty when there is nothing to say.
std::string WarmUpReport(const WarmUpDecision& decision, const Task& task, bool quiet, bool table);

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_WARM_UP_H_
