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
#include <set>
#include <string>
#include <string_view>

namespace rffstream {

// The options the caller named (even at their default value), or that hold
// a value other than their default: those a loaded model is checked
// against, and those whose absence lets a default adapt.
class GivenOptions {
 public:
  void Add(std::string name) { names_.insert(std::move(name)); }
  bool Has(std::string_view name) const { return names_.find(name) != names_.end(); }

 private:
  std::set<std::string, std::less<>> names_;
};

inline constexpr int kDefaultWarmUpLines = 256;

// How input lines are read: --format, --delimiter, --dim, --header,
// --target(s), --ignore, --categorical, --category_buckets, --classes,
// --max_inputs, --max_line_bytes.
struct InputOptions {
  std::string format;  // "" = csv
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
};

// The model to build: kernel, features, bandwidth, ridge, forgetting,
// precision, the warm-up window and the memory limit.
struct ModelOptions {
  int features = 256;
  std::string map = "phase";
  std::string kernel = "gaussian";
  std::string sampler = "iid";
  std::string lengthscales;
  std::string gamma = "auto";
  double lengthscale = 0.0;
  std::string ridge = "auto";
  std::string forget = "auto";  // a number, or auto (β = 1, restarted on drift)
  bool intercept = true;
  std::uint64_t seed = 1;
  std::string precision = "float64";
  std::string loss = "squared";
  std::int64_t max_model_memory_mb = 0;  // 0 = half the physical memory
  int standardize = kDefaultWarmUpLines;
  // The warm-up window is a data set fitted once (Python's fit), not a
  // stream's first lines: the settings that the window cannot tell apart go
  // to the most regularized (TieBreak::kMostRegularized).
  bool window_is_data_set = false;
  GivenOptions given;
};

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_OPTIONS_H_
