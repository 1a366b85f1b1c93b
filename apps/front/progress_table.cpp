#include "front/progress_table.h"

#include <cinttypes>
#include <string_view>

namespace rffstream::app {

ProgressTable::ProgressTable(std::FILE* out, std::int64_t every)
    : out_(out), every_(every), next_row_at_(every > 0 ? every : 1) {}

double ProgressTable::SamplesPerSecond(std::int64_t samples) const {
  const double seconds = absl::ToDoubleSeconds(absl::Now() - start_);
  return seconds > 0 ? static_cast<double>(samples) / seconds : 0.0;
}

void ProgressTable::PrintRow(const RegressionMetrics& metrics) {
  if (!header_printed_) {
    std::fprintf(out_, "%12s %12s %12s %12s %10s %12s\n", "samples", "mse", "mse_since", "mae",
                 "r2", "samples/s");
    header_printed_ = true;
  }
  const std::int64_t since_count = metrics.count() - last_row_count_;
  const double since_mse =
      (metrics.sum_squared_error() - last_row_sum_squared_error_) / static_cast<double>(since_count);
  std::fprintf(out_, "%12" PRId64 " %12.6g %12.6g %12.6g %10.4f %12.0f\n", metrics.count(),
               metrics.mean_squared_error(), since_mse, metrics.mean_absolute_error(),
               metrics.r_squared(), SamplesPerSecond(metrics.count()));
  last_row_count_ = metrics.count();
  last_row_sum_squared_error_ = metrics.sum_squared_error();
}

void ProgressTable::SkipRowsUpTo(std::int64_t count) {
  resumed_count_ = count;
  last_row_count_ = count;
  while (next_row_at_ <= count) {
    next_row_at_ = every_ > 0 ? next_row_at_ + every_ : next_row_at_ * 2;
  }
}

void ProgressTable::ContinueFrom(const RegressionMetrics& metrics) {
  SkipRowsUpTo(metrics.count());
  last_row_sum_squared_error_ = metrics.sum_squared_error();
}

void ProgressTable::ContinueFrom(const ClassificationMetrics& metrics) {
  SkipRowsUpTo(metrics.count());
  last_row_correct_ = metrics.correct();
}

bool ProgressTable::RowDue(std::int64_t count) {
  if (count < next_row_at_) return false;
  next_row_at_ = every_ > 0 ? next_row_at_ + every_ : next_row_at_ * 2;
  return true;
}

void ProgressTable::Update(const RegressionMetrics& metrics) {
  if (RowDue(metrics.count())) PrintRow(metrics);
}

void ProgressTable::Update(const ClassificationMetrics& metrics) {
  if (RowDue(metrics.count())) PrintRow(metrics);
}

void ProgressTable::PrintRow(const ClassificationMetrics& metrics) {
  if (!header_printed_) {
    std::fprintf(out_, "%12s %12s %14s %12s\n", "samples", "accuracy", "accuracy_since",
                 "samples/s");
    header_printed_ = true;
  }
  const std::int64_t since_count = metrics.count() - last_row_count_;
  const double since_accuracy =
      static_cast<double>(metrics.correct() - last_row_correct_) / static_cast<double>(since_count);
  std::fprintf(out_, "%12" PRId64 " %12.4f %14.4f %12.0f\n", metrics.count(), metrics.accuracy(),
               since_accuracy, SamplesPerSecond(metrics.count()));
  last_row_count_ = metrics.count();
  last_row_correct_ = metrics.correct();
}

const char* ProgressTable::PrintCounts(std::int64_t scored, std::int64_t lines_read,
                                       std::int64_t predicted_only, std::int64_t rejected,
                                       const char* scored_verb) {
  std::fprintf(out_,
               "\nfinished: %" PRId64 " lines read, %" PRId64 " %s, %" PRId64
               " predicted only, %" PRId64 " rejected\n",
               lines_read, scored - resumed_count_, scored_verb, predicted_only, rejected);
  if (resumed_count_ > 0) {
    std::fprintf(out_, "resumed from a checkpoint: metrics cover all %" PRId64 " samples\n",
                 scored);
  }
  // Learned lines were predicted before learning: progressive validation.
  return std::string_view(scored_verb) == "learned" ? "progressive validation" : "evaluation";
}

void ProgressTable::PrintThroughput(std::int64_t samples) {
  std::fprintf(out_, "throughput: %.0f samples/s over %.3f s\n", SamplesPerSecond(samples),
               absl::ToDoubleSeconds(absl::Now() - start_));
}

void ProgressTable::Finish(const RegressionMetrics& metrics, std::int64_t lines_read,
                           std::int64_t predicted_only, std::int64_t rejected,
                           const char* scored_verb) {
  if (metrics.count() > last_row_count_) PrintRow(metrics);
  const char* label = PrintCounts(metrics.count(), lines_read, predicted_only, rejected, scored_verb);
  if (metrics.count() > 0) {
    std::fprintf(out_, "%s: rmse %.6g, mse %.6g, mae %.6g, r2 %.4f\n", label,
                 metrics.root_mean_squared_error(), metrics.mean_squared_error(),
                 metrics.mean_absolute_error(), metrics.r_squared());
  }
  PrintThroughput(metrics.count() - resumed_count_ + predicted_only);
}

void ProgressTable::PrintConfusion(const ClassificationMetrics& metrics) {
  if (metrics.num_classes() <= kMaxClassesShownWhole) {
    std::fprintf(out_, "confusion counts (row: true class, column: predicted class):\n");
    for (int actual = 0; actual < metrics.num_classes(); ++actual) {
      std::fprintf(out_, "%4d:", actual);
      for (int predicted = 0; predicted < metrics.num_classes(); ++predicted) {
        std::fprintf(out_, " %" PRId64, metrics.confusion(actual, predicted));
      }
      std::fprintf(out_, "\n");
    }
    return;
  }
  // A K x K matrix of thousands of classes is megabytes nobody reads here.
  std::fprintf(out_, "largest confusions of %d classes (true -> predicted: count; the whole matrix "
               "is in --metrics_out's last row):", metrics.num_classes());
  for (const ClassificationMetrics::Confusion& confusion : metrics.WorstConfusions(kConfusionsShown)) {
    std::fprintf(out_, " %d->%d: %" PRId64, confusion.actual, confusion.predicted, confusion.count);
  }
  std::fprintf(out_, "\n");
}

void ProgressTable::Finish(const ClassificationMetrics& metrics, std::int64_t lines_read,
                           std::int64_t predicted_only, std::int64_t rejected,
                           const char* scored_verb) {
  if (metrics.count() > last_row_count_) PrintRow(metrics);
  const char* label = PrintCounts(metrics.count(), lines_read, predicted_only, rejected, scored_verb);
  if (metrics.count() > 0) {
    std::fprintf(out_, "%s: accuracy %.4f (%" PRId64 " of %" PRId64 ")\n", label,
                 metrics.accuracy(), metrics.correct(), metrics.count());
    PrintConfusion(metrics);
  }
  PrintThroughput(metrics.count() - resumed_count_ + predicted_only);
}

}  // namespace rffstream::app
