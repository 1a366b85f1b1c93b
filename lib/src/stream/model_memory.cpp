// The model's memory before it is made: an estimate of what the learner,
// the warm-up window and choosing settings on it will take, held against
// --max_model_memory_mb (by default half the physical memory).
#include <unistd.h>

#include <algorithm>
#include <cstdint>

#include "absl/strings/str_format.h"
#include "rffstream/stream/model_options.h"

namespace rffstream {

double MemoryLimitBytes(const ModelOptions& options) {
  const std::int64_t flag = options.max_model_memory_mb;
  if (flag > 0) return static_cast<double>(flag) * (1 << 20);
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 8.0 * (1 << 30);
  return 0.5 * static_cast<double>(pages) * static_cast<double>(page_size);
}


absl::Status CheckModelFitsMemory(const LearnerConfig& config, const ModelOptions& options,
                                  std::int64_t held_rows, int block_size) {
  const int bytes_per_number = BytesPerNumber(options);
  // The window's rows are held dense, in double, until the model is built.
  const double window = static_cast<double>(held_rows) * sizeof(double) *
                        (config.features.input_dimension + config.num_outputs);
  // Choosing settings on the window maps it with candidate feature maps of
  // their own (a projection each, one at a time) and factors the smaller of
  // its two Gram matrices (window x window or D x D) in double.
  const double features = config.features.num_features;
  const double smaller = std::min(features, static_cast<double>(held_rows));
  const double tuning = ChoosesOnWarmUp(options)
                            ? sizeof(double) * (2.0 * features * config.features.input_dimension +
                                                static_cast<double>(held_rows) * features +
                                                3.0 * smaller * smaller)
                            : 0.0;
  const double estimate = config.MemoryBytes(bytes_per_number, block_size) + window + tuning;
  const double limit = MemoryLimitBytes(options);
  if (estimate <= limit) return absl::OkStatus();
  constexpr double kMiB = 1 << 20;
  return absl::ResourceExhaustedError(absl::StrFormat(
      "the model would take about %.0f MiB (%d features, %d inputs, %d outputs, float%d: P alone "
      "is about D^2 numbers, one P per class with --loss=hinge, a second copy with --block (two "
      "from --block=1024), and the projection D x inputs; "
      "%.0f MiB of it the %lld rows of the warm-up window and choosing settings on it), more than the limit of %.0f MiB "
      "(--max_model_memory_mb; by default half the physical memory)",
      estimate / kMiB, config.features.num_features, config.features.input_dimension,
      config.num_outputs, 8 * bytes_per_number, (window + tuning) / kMiB,
      static_cast<long long>(held_rows),
      limit / kMiB));
}

}  // namespace rffstream
