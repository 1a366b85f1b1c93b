#include "internal/checkpoint_record.h"

#include <algorithm>
#include <string>
#include <utility>
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

namespace {

// The header's names: as many as the rest of the file can hold.
absl::Status ReadColumnNames(ByteReader& reader, std::vector<std::string>& names) {
  constexpr std::uint64_t kMaxNameBytes = 1 << 16;
  std::uint64_t count = 0;
  if (absl::Status read = reader.Read("task column names", count); !read.ok()) return read;
  if (count > reader.remaining() / sizeof(std::uint64_t)) {
    return absl::DataLossError(
        absl::StrCat(reader.source(), ": truncated: ", count, " column names cannot fit"));
  }
  names.resize(count);
  for (std::string& name : names) {
    if (absl::Status read = reader.ReadString("task column name", kMaxNameBytes, name); !read.ok()) {
      return read;
    }
  }
  return absl::OkStatus();
}

}  // namespace

// Column lists are bounded by the field count and what the rest of the file
// can hold.
absl::StatusOr<Task> ReadTask(ByteReader& reader, std::uint32_t version) {
  Task task;
  std::uint32_t format = 0;
  std::uint8_t header = 0, gamma_from_warm_up = 0, ridge_from_warm_up = 0, kernel_from_warm_up = 0;
  absl::Status status = reader.Read("task input format", format);
  if (status.ok()) status = reader.Read("task delimiter", task.delimiter);
  if (status.ok()) status = reader.Read("task header flag", header);
  if (status.ok()) status = ReadColumnNames(reader, task.column_names);
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

void WriteSettingChanges(ByteWriter& writer, const std::vector<SettingChange>& changes) {
  writer.Write<std::uint64_t>(changes.size());
  for (const SettingChange& change : changes) {
    writer.Write(change.line);
    writer.Write(change.samples);
    writer.Write(change.from);
    writer.Write(change.to);
  }
}

absl::Status ReadSettingChanges(ByteReader& reader, const std::string& setting,
                                std::vector<SettingChange>& changes) {
  std::uint64_t count = 0;
  if (absl::Status status = reader.Read(absl::StrCat(setting, " changes"), count); !status.ok()) {
    return status;
  }
  constexpr std::uint64_t kChangeBytes = 4 * 8;
  if (count > reader.remaining() / kChangeBytes) {
    return absl::DataLossError(absl::StrCat(reader.source(), ": truncated: ", count, " ", setting,
                                            " changes cannot fit"));
  }
  changes.resize(count);
  absl::Status status = absl::OkStatus();
  for (SettingChange& change : changes) {
    if (status.ok()) status = reader.Read(absl::StrCat(setting, " change line"), change.line);
    if (status.ok()) status = reader.Read(absl::StrCat(setting, " change samples"), change.samples);
    if (status.ok()) status = reader.Read(absl::StrCat(setting, " change from"), change.from);
    if (status.ok()) status = reader.Read(absl::StrCat(setting, " change to"), change.to);
  }
  return status;
}

void WriteRidgeFollowState(ByteWriter& writer, const RidgeFollowState& state) {
  writer.Write(state.window_samples);
  if (state.window_samples == 0) return;
  writer.Write(state.window_ridge);
  writer.Write(state.samples);
  writer.Write(state.next_choice);
  writer.WriteArray<double>(state.target_squares);
  WriteSettingChanges(writer, state.changes);
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
  if (status.ok()) status = ReadSettingChanges(reader, "ridge", state.changes);
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

void WriteTargetRange(ByteWriter& writer, const TargetRange& range) {
  // Nothing learned yet: no bounds (a checkpoint holds no infinity).
  const std::vector<double> none;
  writer.WriteArray<double>(range.empty() ? none : range.lows());
  writer.WriteArray<double>(range.empty() ? none : range.highs());
}

absl::StatusOr<TargetRange> ReadTargetRange(ByteReader& reader, const Task& task) {
  const int outputs = task.is_classifier() ? 0 : task.num_outputs();
  std::vector<double> lows, highs;
  absl::Status status = reader.ReadOptionalArray("target range lows", outputs, lows);
  if (status.ok()) status = reader.ReadArray("target range highs", lows.size(), highs);
  if (!status.ok()) return status;
  if (lows.empty()) return TargetRange(outputs);
  for (std::size_t output = 0; output < lows.size(); ++output) {
    if (!(lows[output] <= highs[output])) {
      return absl::DataLossError(absl::StrCat(reader.source(), ": target range of output ",
                                              output, " is empty"));
    }
  }
  return TargetRange::FromBounds(std::move(lows), std::move(highs));
}

}  // namespace rffstream::internal
