// File: apps/front/metrics_log.h
//
// `learn --metrics_out=FILE`: the learning curve as JSON lines, one object
// a row, for plotting (python3 -m rffstream.plot) or any other reader:
//
//   {"samples":1024,"rmse":0.21,"rmse_since":0.18,"mae":0.15,"r2":0.93,
//    "samples_per_second":51234,"elapsed_seconds":0.02}
//
// (a classifier's rows hold accuracy, accuracy_since, error_rate and
// error_rate_since instead). The errors are progressive: each sample was
// predicted before it was learned; "since" covers the samples after the
// previous row. Rows come at 1, 2, 3, ... samples, then about 10 a decade
// (each count 1.25 times the last), or every N samples with
// --progress_every=N, and at the end. A value not known yet is null.
#ifndef RFFSTREAM_APPS_METRICS_LOG_H_
#define RFFSTREAM_APPS_METRICS_LOG_H_

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "rffstream/classification_metrics.h"
#include "rffstream/regression_metrics.h"

namespace rffstream::app {

class MetricsLog {
 public:
  // Opens (truncates) `path`; an empty path logs nothing. `every` as
  // --progress_every (0: the growing schedule).
  [[nodiscard]] static absl::StatusOr<MetricsLog> Open(const std::string& path, std::int64_t every);

  bool enabled() const { return file_ != nullptr; }

  // A resumed run's rows go on from the loaded metrics' count.
  void ContinueFrom(const RegressionMetrics& metrics);
  void ContinueFrom(const ClassificationMetrics& metrics);
  // After each scored sample: writes a row when one is due.
  // `warm_up`: the answers are still the warm-up window's provisional
  // model's, and the row says so ("warm_up":true).
  void Update(const RegressionMetrics& metrics, bool warm_up = false);
  void Update(const ClassificationMetrics& metrics, bool warm_up = false);
  // A row here, off the schedule, for an event: the warm-up window's last
  // line ("warm_up":true) or the line where the stream drifted
  // (--forget=auto, "drift":true). Not with --progress_every, whose rows
  // come at exactly its multiples.
  enum class Event { kWarmUpEnd, kDrift };
  void MarkEvent(const RegressionMetrics& metrics, Event event);
  void MarkEvent(const ClassificationMetrics& metrics, Event event);
  // The last row (unless just written), then closes the file; names the
  // file when a write failed. A classifier's last row also holds the whole
  // confusion matrix ("confusion": rows of true classes), which the summary
  // on standard error shows in full only for a few classes.
  [[nodiscard]] absl::Status Finish(const RegressionMetrics& metrics);
  [[nodiscard]] absl::Status Finish(const ClassificationMetrics& metrics);

 private:
  MetricsLog(std::FILE* file, std::string path, std::int64_t every);
  bool RowDue(std::int64_t count);
  // `mark`: a field that ends the row (",\"warm_up\":true"), or empty.
  void WriteRow(const RegressionMetrics& metrics, std::string_view mark = {});
  // `with_confusion`: the last row, with the confusion matrix.
  void WriteRow(const ClassificationMetrics& metrics, bool with_confusion = false,
                std::string_view mark = {});
  // The fields every row ends with, and the row's end.
  // The rate fields and the row's mark; ends the row.
  void WriteRate(std::int64_t count, std::string_view mark);
  absl::Status Close();

  struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
  };
  std::unique_ptr<std::FILE, FileCloser> file_;
  std::string path_;
  std::int64_t every_;
  std::int64_t next_row_at_;
  std::int64_t resumed_count_ = 0;
  std::int64_t last_row_count_ = 0;
  double last_row_sum_squared_error_ = 0.0;
  double last_row_sum_absolute_error_ = 0.0;
  std::int64_t last_row_correct_ = 0;
  // Where the last classification row starts in the file (-1: unknown, or
  // not seekable) and the counts it was measured from, so that Finish can
  // rewrite it with the confusion matrix rather than repeat it.
  long last_row_offset_ = -1;
  std::int64_t row_before_count_ = 0;
  std::int64_t row_before_correct_ = 0;
  absl::Time start_ = absl::Now();
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_METRICS_LOG_H_
