// File: apps/front/progress_table.h
//
// The running progressive-validation table that `rffstream learn` prints to
// stderr, in the manner of Vowpal Wabbit: one row at doubling sample counts
// (or every N samples), and a summary at the end.
#ifndef RFFSTREAM_APPS_PROGRESS_TABLE_H_
#define RFFSTREAM_APPS_PROGRESS_TABLE_H_

#include <cstdint>
#include <cstdio>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "rffstream/classification_metrics.h"
#include "rffstream/regression_metrics.h"

namespace rffstream::app {

class ProgressTable {
 public:
  // every == 0: rows at 1, 2, 4, 8, ... samples; otherwise every `every` samples.
  ProgressTable(std::FILE* out, std::int64_t every);

  // Continues the table of a resumed run: the next row comes at the next
  // doubling (or multiple of `every`) past the metrics' count.
  void ContinueFrom(const RegressionMetrics& metrics);
  void ContinueFrom(const ClassificationMetrics& metrics);

  // Whether Update() prints a row at `count` samples.
  bool RowDueAt(std::int64_t count) const { return count >= next_row_at_; }
  // Call after each learned sample; prints a row when one is due.
  void Update(const RegressionMetrics& metrics);
  void Update(const ClassificationMetrics& metrics);

  // Prints the last row (if not just printed) and the summary lines.
  // `scored_verb` says what happened to labelled lines: "learned" or "scored".
  void Finish(const RegressionMetrics& metrics, std::int64_t lines_read,
              std::int64_t predicted_only, std::int64_t rejected, const char* scored_verb);
  // The same for a classifier: accuracy, then the confusion counts.
  void Finish(const ClassificationMetrics& metrics, std::int64_t lines_read,
              std::int64_t predicted_only, std::int64_t rejected, const char* scored_verb);

 public:
  static constexpr int kMaxClassesShownWhole = 32;
  static constexpr int kConfusionsShown = 20;

 private:
  // The next row after `count` resumed samples.
  void SkipRowsUpTo(std::int64_t count);
  // Whether a row is due at `count` samples; if so, schedules the next one.
  bool RowDue(std::int64_t count);
  void PrintRow(const RegressionMetrics& metrics);
  void PrintRow(const ClassificationMetrics& metrics);
  // The whole matrix for up to kMaxClassesShownWhole classes, else the
  // kConfusionsShown largest mistakes.
  void PrintConfusion(const ClassificationMetrics& metrics);
  // The "finished" line; returns the label of the metrics line.
  const char* PrintCounts(std::int64_t scored, std::int64_t lines_read,
                          std::int64_t predicted_only, std::int64_t rejected,
                          const char* scored_verb);
  void PrintThroughput(std::int64_t samples);
  double SamplesPerSecond(std::int64_t samples) const;

  std::FILE* out_;
  std::int64_t every_;
  std::int64_t next_row_at_;
  std::int64_t resumed_count_ = 0;  // samples in the metrics before this run
  std::int64_t last_row_count_ = 0;
  double last_row_sum_squared_error_ = 0.0;
  std::int64_t last_row_correct_ = 0;
  bool header_printed_ = false;
  absl::Time start_ = absl::Now();
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_PROGRESS_TABLE_H_
