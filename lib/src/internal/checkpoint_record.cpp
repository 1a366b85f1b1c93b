#include "internal/checkpoint_record.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"

namespace rffstream::internal {

void WriteTask(ByteWriter& writer, const Task& task) {
  writer.Write<std::uint32_t>(static_cast<std::uint32_t>(task.format));
  writer.Write<char>(task.delimiter);
  writer.Write<std::uint8_t>(task.header ? 1 : 0);
  writer.Write<std::uint64_t>(task.column_names.size());
  for (const std::string& name : task.column_names) writer.WriteString(name);
  writer.Write<std::int32_t>(task.num_fields);
  writer.WriteArray<int>(task.target_columns);
  writer.WriteArray<int>(task.ignored_columns);
  writer.Write<std::int32_t>(task.libsvm_dimension);
  writer.Write<std::int32_t>(task.num_classes);
  writer.Write<std::int32_t>(task.standardize_lines);
  writer.Write<std::uint8_t>(task.gamma_from_warm_up ? 1 : 0);
  writer.Write<std::uint8_t>(task.ridge_from_warm_up ? 1 : 0);
  writer.Write<std::uint8_t>(task.kernel_from_warm_up ? 1 : 0);
  writer.WriteArray<int>(task.categorical_columns);
  writer.Write<std::int32_t>(task.category_buckets);
  writer.Write<std::uint8_t>(task.drift_from_stream ? 1 : 0);
}

// Column lists and names are bounded by what the rest of the file can hold.
absl::StatusOr<Task> ReadTask(ByteReader& reader, std::uint32_t version) {
  constexpr std::uint64_t kMaxNameBytes = 1 << 16;
  Task task;
  std::uint32_t format = 0;
  std::uint8_t header = 0, gamma_from_warm_up = 0, ridge_from_warm_up = 0, kernel_from_warm_up = 0;
  std::uint64_t num_names = 0;
  absl::Status status = reader.Read("task input format", format);
  if (status.ok()) status = reader.Read("task delimiter", task.delimiter);
  if (status.ok()) status = reader.Read("task header flag", header);
  if (status.ok()) status = reader.Read("task column names", num_names);
  if (status.ok() && num_names > reader.remaining() / sizeof(std::uint64_t)) {
    return absl::DataLossError(absl::StrCat(reader.source(), ": truncated: ", num_names,
                                            " column names cannot fit"));
  }
  task.column_names.resize(status.ok() ? num_names : 0);
  for (std::string& name : task.column_names) {
    if (status.ok()) status = reader.ReadString("task column name", kMaxNameBytes, name);
  }
  if (status.ok()) status = reader.Read("task field count", task.num_fields);
  const auto columns = static_cast<std::uint64_t>(std::max(task.num_fields, 0));
  const auto read_columns = [&](std::vector<int>& list) {
    std::uint64_t count = 0;
    if (status.ok()) status = reader.Read("task column list", count);
    if (status.ok() && (count > columns || count > reader.remaining() / sizeof(std::int32_t))) {
      status = absl::DataLossError(
          absl::StrCat(reader.source(), ": task lists ", count, " columns of ", columns));
    }
    list.resize(status.ok() ? count : 0);
    for (int& column : list) {
      if (status.ok()) status = reader.Read("task column", column);
    }
  };
  read_columns(task.target_columns);
  read_columns(task.ignored_columns);
  if (status.ok()) status = reader.Read("task libsvm dimension", task.libsvm_dimension);
  if (status.ok()) status = reader.Read("task classes", task.num_classes);
  if (status.ok()) status = reader.Read("task standardization window", task.standardize_lines);
  if (status.ok()) status = reader.Read("task bandwidth flag", gamma_from_warm_up);
  if (status.ok()) status = reader.Read("task ridge flag", ridge_from_warm_up);
  if (status.ok()) status = reader.Read("task kernel flag", kernel_from_warm_up);
  if (version >= 7) {  // the category columns
    read_columns(task.categorical_columns);
    if (status.ok()) status = reader.Read("task category buckets", task.category_buckets);
    if (status.ok() && (task.category_buckets < 2 || task.category_buckets > Task::kMaxCategoryBuckets)) {
      return absl::DataLossError(absl::StrCat(reader.source(), ": ", task.category_buckets,
                                              " category buckets"));
    }
    std::uint8_t drift_from_stream = 0;
    if (status.ok()) status = reader.Read("task drift flag", drift_from_stream);
    task.drift_from_stream = drift_from_stream != 0;
  }
  if (!status.ok()) return status;
  if (format > static_cast<std::uint32_t>(InputFormat::kLibsvm)) {
    return absl::DataLossError(absl::StrCat(reader.source(), ": unknown input format ", format));
  }
  task.format = static_cast<InputFormat>(format);
  task.header = header != 0;
  task.gamma_from_warm_up = gamma_from_warm_up != 0;
  task.ridge_from_warm_up = ridge_from_warm_up != 0;
  task.kernel_from_warm_up = kernel_from_warm_up != 0;
  return task;
}

absl::Status ReadClassLabels(ByteReader& reader, Task& task) {
  constexpr std::uint64_t kMaxLabelBytes = 1 << 16;
  std::uint64_t count = 0;
  if (absl::Status read = reader.Read("number of class labels", count); !read.ok()) return read;
  if (count != 0 && count != static_cast<std::uint64_t>(task.num_classes)) {
    return absl::DataLossError(absl::StrCat(reader.source(), ": ", count,
                                            " class labels for ", task.num_classes, " classes"));
  }
  task.class_labels.resize(count);
  for (std::string& label : task.class_labels) {
    if (absl::Status read = reader.ReadString("class label", kMaxLabelBytes, label); !read.ok()) {
      return read;
    }
  }
  if (absl::Status valid = task.Validate(); !valid.ok()) {
    return absl::DataLossError(absl::StrCat(reader.source(), ": ", valid.message()));
  }
  return absl::OkStatus();
}

absl::Status CheckTaskFitsModel(const Task& task, const LearnerConfig& config) {
  if (task.num_inputs() != config.features.input_dimension ||
      task.num_outputs() != config.num_outputs) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the task has ", task.num_inputs(), " inputs and ", task.num_outputs(),
        " outputs, the model ", config.features.input_dimension, " and ", config.num_outputs));
  }
  return absl::OkStatus();
}

void WriteRegressionMetrics(ByteWriter& writer, const RegressionMetrics& metrics) {
  const RegressionMetrics::State& state = metrics.state();
  writer.Write(state.count);
  writer.Write(state.sum_squared_error);
  writer.Write(state.sum_absolute_error);
  writer.Write(state.target_mean);
  writer.Write(state.target_squared_deviations);
}

absl::StatusOr<RegressionMetrics> ReadRegressionMetrics(ByteReader& reader) {
  RegressionMetrics::State state;
  absl::Status status = reader.Read("metrics", state.count);
  if (status.ok()) status = reader.Read("metrics", state.sum_squared_error);
  if (status.ok()) status = reader.Read("metrics", state.sum_absolute_error);
  if (status.ok()) status = reader.Read("metrics", state.target_mean);
  if (status.ok()) status = reader.Read("metrics", state.target_squared_deviations);
  if (!status.ok()) return status;
  if (state.count < 0) {
    return absl::DataLossError(absl::StrCat(reader.source(), ": impossible sample counts in the metrics"));
  }
  return RegressionMetrics(state);
}

void WriteRidgeFollowState(ByteWriter& writer, const RidgeFollowState& state) {
  writer.Write(state.window_samples);
  if (state.window_samples == 0) return;
  writer.Write(state.window_ridge);
  writer.Write(state.samples);
  writer.Write(state.next_choice);
  writer.WriteArray<double>(state.target_squares);
  writer.Write<std::uint64_t>(state.changes.size());
  for (const RidgeFollowState::Change& change : state.changes) {
    writer.Write(change.line);
    writer.Write(change.samples);
    writer.Write(change.from);
    writer.Write(change.to);
  }
}

absl::StatusOr<RidgeFollowState> ReadRidgeFollowState(ByteReader& reader, int num_outputs) {
  RidgeFollowState state;
  absl::Status status = reader.Read("ridge follow window", state.window_samples);
  if (!status.ok()) return status;
  if (state.window_samples == 0) return state;
  if (status.ok()) status = reader.Read("ridge follow window ridge", state.window_ridge);
  if (status.ok()) status = reader.Read("ridge follow samples", state.samples);
  if (status.ok()) status = reader.Read("ridge follow next choice", state.next_choice);
  std::uint64_t count = 0;
  if (status.ok()) status = reader.Read("ridge follow outputs", count);
  if (status.ok() && count != static_cast<std::uint64_t>(num_outputs)) {
    return absl::DataLossError(absl::StrCat(reader.source(), ": ridge follow sums of ", count,
                                            " outputs for a model of ", num_outputs));
  }
  state.target_squares.resize(status.ok() ? count : 0);
  for (double& square : state.target_squares) {
    if (status.ok()) status = reader.Read("ridge follow sum of squares", square);
  }
  std::uint64_t changes = 0;
  if (status.ok()) status = reader.Read("ridge follow changes", changes);
  constexpr std::uint64_t kChangeBytes = 4 * 8;
  if (status.ok() && changes > reader.remaining() / kChangeBytes) {
    return absl::DataLossError(
        absl::StrCat(reader.source(), ": truncated: ", changes, " ridge changes cannot fit"));
  }
  state.changes.resize(status.ok() ? changes : 0);
  for (RidgeFollowState::Change& change : state.changes) {
    if (status.ok()) status = reader.Read("ridge change line", change.line);
    if (status.ok()) status = reader.Read("ridge change samples", change.samples);
    if (status.ok()) status = reader.Read("ridge change from", change.from);
    if (status.ok()) status = reader.Read("ridge change to", change.to);
  }
  if (!status.ok()) return status;
  // Counts a stream could reach, far from what their products overflow.
  constexpr std::int64_t kMaxCount = std::int64_t{1} << 56;
  bool valid = state.window_samples > 0 && state.window_samples < kMaxCount &&
               state.samples >= 0 && state.samples < kMaxCount && state.next_choice > 0 &&
               state.next_choice < kMaxCount && state.window_ridge > 0;
  for (double square : state.target_squares) valid = valid && square >= 0;
  for (const RidgeFollowState::Change& change : state.changes) {
    valid = valid && change.from > 0 && change.to > 0 && change.samples >= 0;
  }
  if (!valid) {
    return absl::DataLossError(absl::StrCat(reader.source(), ": impossible ridge follow state"));
  }
  return state;
}

void WriteDriftTrackingState(ByteWriter& writer, const DriftTrackingState& state) {
  writer.Write<std::uint32_t>(static_cast<std::uint32_t>(state.detectors.size()));
  if (state.detectors.empty()) return;
  for (const ChangeDetector::State& detector : state.detectors) {
    writer.Write(detector.recent);
    writer.Write(detector.reference);
    writer.Write(detector.samples);
    writer.Write(detector.last_change_ratio);
  }
  writer.Write<std::uint64_t>(state.inputs.size());  // the lines' input values
  writer.WriteArray<double>(state.inputs);
  writer.WriteArray<double>(state.targets);
  writer.Write(state.lines_since_restart);
}

namespace {

constexpr std::uint32_t kMostDetectors = 8;

}  // namespace

absl::Status CheckDriftTrackingState(const DriftTrackingState& state, const Task& task) {
  if (state.detectors.empty()) return absl::OkStatus();
  const auto inputs = static_cast<std::size_t>(task.num_inputs());
  const auto outputs = static_cast<std::size_t>(task.num_outputs());
  const std::size_t rows = inputs == 0 ? 0 : state.inputs.size() / inputs;
  if (state.detectors.size() > kMostDetectors || inputs == 0 ||
      state.inputs.size() != rows * inputs || state.targets.size() != rows * outputs) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a drift tracking state of ", state.detectors.size(), " detectors and ",
        state.inputs.size(), " + ", state.targets.size(), " line values does not fit lines of ",
        inputs, " inputs and ", outputs, " targets"));
  }
  // Counts a stream can reach: each detector has seen at most the lines
  // since the restart, and those stay far from overflowing.
  constexpr std::int64_t kMaxLines = std::int64_t{1} << 56;
  bool valid = state.lines_since_restart >= static_cast<std::int64_t>(rows) &&
               state.lines_since_restart < kMaxLines;
  for (const ChangeDetector::State& detector : state.detectors) {
    valid = valid && detector.IsValid() && detector.samples <= state.lines_since_restart;
  }
  for (const double value : state.inputs) valid = valid && std::isfinite(value);
  for (const double value : state.targets) valid = valid && std::isfinite(value);
  if (!valid) return absl::InvalidArgumentError("a drift tracking state that learning cannot reach");
  return absl::OkStatus();
}

absl::StatusOr<DriftTrackingState> ReadDriftTrackingState(ByteReader& reader, const Task& task) {
  DriftTrackingState state;
  std::uint32_t detectors = 0;
  if (absl::Status status = reader.Read("drift detectors", detectors); !status.ok()) return status;
  if (detectors == 0) return state;
  if (detectors > kMostDetectors) {
    return absl::DataLossError(absl::StrCat(reader.source(), ": ", detectors,
                                            " drift detectors (at most ", kMostDetectors, ")"));
  }
  state.detectors.resize(detectors);
  absl::Status status = absl::OkStatus();
  for (ChangeDetector::State& detector : state.detectors) {
    if (status.ok()) status = reader.Read("drift detector level", detector.recent);
    if (status.ok()) status = reader.Read("drift detector reference", detector.reference);
    if (status.ok()) status = reader.Read("drift detector samples", detector.samples);
    if (status.ok()) status = reader.Read("drift detector last change", detector.last_change_ratio);
  }
  // The remembered lines: as many inputs as targets, of the task's widths.
  std::uint64_t values = 0;
  if (status.ok()) status = reader.Read("drift line values", values);
  if (!status.ok()) return status;
  const auto inputs = static_cast<std::uint64_t>(task.num_inputs());
  const auto outputs = static_cast<std::uint64_t>(task.num_outputs());
  if (inputs == 0 || values % inputs != 0 || values / inputs > reader.remaining() / sizeof(double)) {
    return absl::DataLossError(absl::StrCat(reader.source(), ": ", values,
                                            " remembered input values for lines of ", inputs));
  }
  const std::uint64_t rows = values / inputs;
  const auto read_lines = [&](std::string_view field, std::uint64_t count, std::vector<double>& to) {
    return rows == 0 ? reader.ReadOptionalArray(field, 0, to) : reader.ReadArray(field, count, to);
  };
  status = read_lines("drift line inputs", rows * inputs, state.inputs);
  if (status.ok()) status = read_lines("drift line targets", rows * outputs, state.targets);
  if (status.ok()) status = reader.Read("drift lines since restart", state.lines_since_restart);
  if (!status.ok()) return status;
  if (absl::Status valid = CheckDriftTrackingState(state, task); !valid.ok()) {
    return absl::DataLossError(absl::StrCat(reader.source(), ": ", valid.message()));
  }
  return state;
}

}  // namespace rffstream::internal
