#include "front/metrics_log.h"

#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"

namespace rffstream::app {
namespace {

constexpr std::string_view kWarmUpMark = ",\"warm_up\":true";
constexpr std::string_view kDriftMark = ",\"drift\":true";

// A JSON number, or null for a value not known yet (NaN) or infinite.
void WriteField(std::FILE* file, const char* name, double value) {
  if (std::isfinite(value)) {
    std::fprintf(file, ",\"%s\":%.9g", name, value);
  } else {
    std::fprintf(file, ",\"%s\":null", name);
  }
}

double Ratio(double numerator, std::int64_t count) {
  return count > 0 ? numerator / static_cast<double>(count) : std::nan("");
}

}  // namespace

absl::StatusOr<MetricsLog> MetricsLog::Open(const std::string& path, std::int64_t every) {
  if (path.empty()) return MetricsLog(nullptr, path, every);
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("--metrics_out: cannot write ", path, ": ", std::strerror(errno)));
  }
  return MetricsLog(file, path, every);
}

MetricsLog::MetricsLog(std::FILE* file, std::string path, std::int64_t every)
    : file_(file), path_(std::move(path)), every_(every), next_row_at_(every > 0 ? every : 1) {}

void MetricsLog::ContinueFrom(const RegressionMetrics& metrics) {
  resumed_count_ = last_row_count_ = metrics.count();
  last_row_sum_squared_error_ = metrics.sum_squared_error();
  last_row_sum_absolute_error_ = metrics.state().sum_absolute_error;
  while (next_row_at_ <= metrics.count()) RowDue(next_row_at_);
}

void MetricsLog::ContinueFrom(const ClassificationMetrics& metrics) {
  resumed_count_ = last_row_count_ = metrics.count();
  last_row_correct_ = metrics.correct();
  while (next_row_at_ <= metrics.count()) RowDue(next_row_at_);
}

bool MetricsLog::RowDue(std::int64_t count) {
  if (count < next_row_at_) return false;
  if (every_ > 0) {
    next_row_at_ += every_;
  } else {
    next_row_at_ = std::max(next_row_at_ + 1,
                            static_cast<std::int64_t>(std::ceil(1.25 * static_cast<double>(next_row_at_))));
  }
  return true;
}

void MetricsLog::Update(const RegressionMetrics& metrics, bool warm_up) {
  if (file_ != nullptr && RowDue(metrics.count())) {
    WriteRow(metrics, warm_up ? kWarmUpMark : std::string_view());
  }
}

void MetricsLog::Update(const ClassificationMetrics& metrics, bool warm_up) {
  if (file_ != nullptr && RowDue(metrics.count())) {
    WriteRow(metrics, false, warm_up ? kWarmUpMark : std::string_view());
  }
}

void MetricsLog::MarkEvent(const RegressionMetrics& metrics, Event event) {
  if (file_ == nullptr || every_ > 0 || metrics.count() <= last_row_count_) return;
  WriteRow(metrics, event == Event::kDrift ? kDriftMark : kWarmUpMark);
}

void MetricsLog::MarkEvent(const ClassificationMetrics& metrics, Event event) {
  if (file_ == nullptr || every_ > 0 || metrics.count() <= last_row_count_) return;
  WriteRow(metrics, false, event == Event::kDrift ? kDriftMark : kWarmUpMark);
}

void MetricsLog::WriteRow(const RegressionMetrics& metrics, std::string_view mark) {
  const std::int64_t since = metrics.count() - last_row_count_;
  const double sum_absolute_error = metrics.state().sum_absolute_error;
  std::fprintf(file_.get(), "{\"samples\":%" PRId64, metrics.count());
  WriteField(file_.get(), "rmse", metrics.root_mean_squared_error());
  WriteField(file_.get(), "rmse_since",
             std::sqrt(Ratio(metrics.sum_squared_error() - last_row_sum_squared_error_, since)));
  WriteField(file_.get(), "mae", metrics.mean_absolute_error());
  WriteField(file_.get(), "mae_since", Ratio(sum_absolute_error - last_row_sum_absolute_error_, since));
  WriteField(file_.get(), "r2", metrics.r_squared());
  WriteRate(metrics.count(), mark);
  last_row_count_ = metrics.count();
  last_row_sum_squared_error_ = metrics.sum_squared_error();
  last_row_sum_absolute_error_ = sum_absolute_error;
}

void MetricsLog::WriteRow(const ClassificationMetrics& metrics, bool with_confusion,
                          std::string_view mark) {
  last_row_offset_ = std::ftell(file_.get());
  row_before_count_ = last_row_count_;
  row_before_correct_ = last_row_correct_;
  const std::int64_t since = metrics.count() - last_row_count_;
  const double accuracy_since =
      Ratio(static_cast<double>(metrics.correct() - last_row_correct_), since);
  std::fprintf(file_.get(), "{\"samples\":%" PRId64, metrics.count());
  WriteField(file_.get(), "accuracy", metrics.accuracy());
  WriteField(file_.get(), "accuracy_since", accuracy_since);
  WriteField(file_.get(), "error_rate", 1.0 - metrics.accuracy());
  WriteField(file_.get(), "error_rate_since", 1.0 - accuracy_since);
  if (with_confusion) {
    std::fputs(",\"confusion\":[", file_.get());
    for (int actual = 0; actual < metrics.num_classes(); ++actual) {
      for (int predicted = 0; predicted < metrics.num_classes(); ++predicted) {
        std::fprintf(file_.get(), "%s%" PRId64,
                     predicted > 0 ? "," : actual > 0 ? "],[" : "[",
                     metrics.confusion(actual, predicted));
      }
    }
    std::fputs("]]", file_.get());
  }
  WriteRate(metrics.count(), mark);
  last_row_count_ = metrics.count();
  last_row_correct_ = metrics.correct();
}

void MetricsLog::WriteRate(std::int64_t count, std::string_view mark) {
  const double seconds = absl::ToDoubleSeconds(absl::Now() - start_);
  WriteField(file_.get(), "samples_per_second",
             seconds > 0 ? static_cast<double>(count - resumed_count_) / seconds : std::nan(""));
  WriteField(file_.get(), "elapsed_seconds", seconds);
  std::fprintf(file_.get(), "%.*s}\n", static_cast<int>(mark.size()), mark.data());
}

absl::Status MetricsLog::Finish(const RegressionMetrics& metrics) {
  if (file_ != nullptr && metrics.count() > last_row_count_) WriteRow(metrics);
  return Close();
}

absl::Status MetricsLog::Finish(const ClassificationMetrics& metrics) {
  if (file_ == nullptr || metrics.count() == 0) return Close();
  // The last row was written at this count already: written again in its
  // place (a regular file), now with the matrix; a pipe gets it once more.
  if (metrics.count() == last_row_count_ && last_row_offset_ >= 0 &&
      std::fseek(file_.get(), last_row_offset_, SEEK_SET) == 0) {
    last_row_count_ = row_before_count_;
    last_row_correct_ = row_before_correct_;
  }
  WriteRow(metrics, /*with_confusion=*/true);
  return Close();
}

absl::Status MetricsLog::Close() {
  if (file_ == nullptr) return absl::OkStatus();
  std::FILE* file = file_.release();
  const bool failed = std::ferror(file) != 0;
  const int closed = std::fclose(file);
  if (failed || closed != 0) {
    return absl::DataLossError(absl::StrCat("--metrics_out: writing ", path_, " failed: ",
                                            std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace rffstream::app
