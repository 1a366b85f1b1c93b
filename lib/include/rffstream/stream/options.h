// File: rffstream/stream/options.h
//
// The stream pipeline's options as plain values, one struct per concern:
// how input lines are read and the model to build. The command line's flags,
// Python's keyword arguments and an embedder's code all fill these same
// structs; the pipeline never reads a flag.
#ifndef RFFSTREAM_STREAM_OPTIONS_H_
#define RFFSTREAM_STREAM_OPTIONS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "rffstream/feature_map_config.h"
#include "rffstream/learner_config.h"
#include "rffstream/task.h"

namespace rffstream {

// The options the caller named (even at their default value), or that hold
// a value other than their default: those a loaded model is checked
// against, and those whose absence lets a default adapt.
class GivenOptions {
 public:
  void Add(std::string name) { names_.insert(std::move(name)); }
  bool Has(std::string_view name) const { return names_.find(name) != names_.end(); }
  bool operator==(const GivenOptions&) const = default;

 private:
  std::set<std::string, std::less<>> names_;
};

inline constexpr int kDefaultWarmUpLines = 256;

// How input lines are read: --format, --delimiter, --dim, --header,
// --target(s), --ignore, --categorical, --category_buckets, --classes,
// --max_inputs, --max_line_bytes.
struct InputOptions {
  InputFormat format = InputFormat::kCsv;
  std::string delimiter = ",";
  int dim = 0;
  bool header = false;
  std::string target = "last";
  std::string targets;
  std::string ignore;
  // Text columns: "auto" (those whose first data line holds text), "none",
  // or a list of names or 0-based indices; and the inputs each one takes.
  std::string categorical = "auto";
  int category_buckets = 64;
  int classes = 0;
  int max_inputs = 100000;
  std::int64_t max_line_bytes = 1 << 20;
  GivenOptions given;

  bool operator==(const InputOptions&) const = default;
};

// The precision a model computes and stores in (rffstream/learner.h's
// BasicLearner<float> or BasicLearner<double>).
enum class Precision { kFloat64, kFloat32 };

// The model to build: kernel, features, bandwidth, ridge, forgetting,
// precision, the warm-up window and the memory limit. An empty optional is
// "auto": the warm-up window chooses (γ, λ, the kernel) or the stream does
// (β: 1, restarted where it drifts). Text as a flag spells it (--gamma=auto)
// becomes these values through SetModelOption (option_text.h).
struct ModelOptions {
  int features = 256;
  FeatureMapKind map = FeatureMapKind::kPhase;
  std::optional<KernelKind> kernel = KernelKind::kGaussian;
  FrequencySampler sampler = FrequencySampler::kIid;
  std::vector<double> lengthscales;  // one per input (ARD), or none
  std::optional<double> gamma;
  double lengthscale = 0.0;  // > 0: the bandwidth as a lengthscale, instead of gamma
  std::optional<double> ridge;
  std::optional<double> forget;
  bool intercept = true;
  std::uint64_t seed = 1;
  Precision precision = Precision::kFloat32;
  Loss loss = Loss::kSquared;
  std::int64_t max_model_memory_mb = 0;  // 0 = half the physical memory
  int standardize = kDefaultWarmUpLines;
  // The warm-up window is a data set fitted once (Python's fit), not a
  // stream's first lines: the settings that the window cannot tell apart go
  // to the most regularized (TieBreak::kMostRegularized).
  bool window_is_data_set = false;
  GivenOptions given;

  bool operator==(const ModelOptions&) const = default;
};

// Notes as given every option whose value differs from its default, as the
// command line does for the flags it reads: an embedder's or Python's
// values then weigh as a user's flags do (the warm-up window's length, the
// checks against a loaded model). Options already noted stay noted.
void NoteChangedOptions(InputOptions& options);
void NoteChangedOptions(ModelOptions& options);

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_OPTIONS_H_
