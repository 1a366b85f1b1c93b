#include "progress_table.h"

#include <cinttypes>
#include <string_view>

namespace rffstream::app {

ProgressTable::ProgressTable(std::FILE* out, std::int64_t every)
    : out_(out), every_(every), next_row_at_(every > 0 ? every : 1) {}

void ProgressTable::PrintHeader() {
  std::fprintf(out_, "%12s %12s %12s %12s %10s %12s\n", "samples", "mse", "mse_since",
               "mae", "r2", "samples/s");
  header_printed_ = true;
}

double ProgressTable::SamplesPerSecond(std::int64_t samples) const {
  const double seconds = absl::ToDoubleSeconds(absl::Now() - start_);
  return seconds > 0 ? static_cast<double>(samples) / seconds : 0.0;
}

void ProgressTable::PrintRow(const RegressionMetrics& metrics) {
  if (!header_printed_) PrintHeader();
  const std::int64_t since_count = metrics.count() - last_row_count_;
  const double since_mse =
      (metrics.sum_squared_error() - last_row_sum_squared_error_) / static_cast<double>(since_count);
  std::fprintf(out_, "%12" PRId64 " %12.6g %12.6g %12.6g %10.4f %12.0f\n", metrics.count(),
               metrics.mean_squared_error(), since_mse, metrics.mean_absolute_error(),
               metrics.r_squared(), SamplesPerSecond(metrics.count()));
  last_row_count_ = metrics.count();
  last_row_sum_squared_error_ = metrics.sum_squared_error();
}

void ProgressTable::ContinueFrom(const RegressionMetrics& metrics) {
  resumed_count_ = metrics.count();
  last_row_count_ = metrics.count();
  last_row_sum_squared_error_ = metrics.sum_squared_error();
  while (next_row_at_ <= metrics.count()) {
    next_row_at_ = every_ > 0 ? next_row_at_ + every_ : next_row_at_ * 2;
  }
}

void ProgressTable::Update(const RegressionMetrics& metrics) {
  if (metrics.count() < next_row_at_) return;
  PrintRow(metrics);
  next_row_at_ = every_ > 0 ? next_row_at_ + every_ : next_row_at_ * 2;
}

void ProgressTable::Finish(const RegressionMetrics& metrics, std::int64_t lines_read,
                           std::int64_t predicted_only, std::int64_t rejected,
                           const char* scored_verb) {
  if (metrics.count() > last_row_count_) PrintRow(metrics);
  std::fprintf(out_,
               "\nfinished: %" PRId64 " lines read, %" PRId64 " %s, %" PRId64
               " predicted only, %" PRId64 " rejected\n",
               lines_read, metrics.count() - resumed_count_, scored_verb, predicted_only, rejected);
  if (resumed_count_ > 0) {
    std::fprintf(out_, "resumed from a checkpoint: metrics cover all %" PRId64 " samples\n",
                 metrics.count());
  }
  if (metrics.count() > 0) {
    // Learned lines were predicted before learning: progressive validation.
    const bool progressive = std::string_view(scored_verb) == "learned";
    std::fprintf(out_, "%s: rmse %.6g, mse %.6g, mae %.6g, r2 %.4f\n",
                 progressive ? "progressive validation" : "evaluation",
                 metrics.root_mean_squared_error(), metrics.mean_squared_error(),
                 metrics.mean_absolute_error(), metrics.r_squared());
  }
  std::fprintf(out_, "throughput: %.0f samples/s over %.3f s\n",
               SamplesPerSecond(metrics.count() - resumed_count_ + predicted_only),
               absl::ToDoubleSeconds(absl::Now() - start_));
}

}  // namespace rffstream::app
