// The flags of export and generate, and their options.
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/declare.h"
#include "cli/flags.h"

ABSL_FLAG(bool, covariance, false, "export: include the D x D matrix P in the JSON");
ABSL_FLAG(std::string, series, "mackey-glass", "generate: mackey-glass or lorenz");
ABSL_FLAG(int, samples, 10000, "generate: number of CSV lines to write");
ABSL_FLAG(int, embedding, 7, "generate: number of past values L per line (the inputs)");
ABSL_FLAG(std::string, base, "",
          "merge: the checkpoint every shard started from (learn --load=BASE), counted once; "
          "default: shards learned from scratch");

ABSL_DECLARE_FLAG(std::string, format);
ABSL_DECLARE_FLAG(std::string, load);
ABSL_DECLARE_FLAG(std::string, save);

namespace rffstream::app {

ExportOptions ExportOptionsFromFlags() {
  ExportOptions options;
  options.load = absl::GetFlag(FLAGS_load);
  options.format = absl::GetFlag(FLAGS_format);
  options.covariance = absl::GetFlag(FLAGS_covariance);
  return options;
}

MergeOptions MergeOptionsFromFlags(std::vector<std::string> shards) {
  MergeOptions options;
  options.shards = std::move(shards);
  options.base = absl::GetFlag(FLAGS_base);
  options.save = absl::GetFlag(FLAGS_save);
  return options;
}

GenerateOptions GenerateOptionsFromFlags() {
  GenerateOptions options;
  options.series = absl::GetFlag(FLAGS_series);
  options.samples = absl::GetFlag(FLAGS_samples);
  options.embedding = absl::GetFlag(FLAGS_embedding);
  return options;
}

}  // namespace rffstream::app
