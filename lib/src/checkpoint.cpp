#include "rffstream/checkpoint.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "internal/atomic_file.h"
#include "internal/byte_buffer.h"
#include "internal/crc32c.h"

namespace rffstream {
namespace internal {

// Reads and writes the private parts of the model, for checkpoints only.
class CheckpointAccess {
 public:
  template <class Real>
  static void Write(ByteWriter& writer, const BasicLearner<Real>& learner) {
    WriteConfig(writer, learner.config());
    const BasicFeatureMap<Real>& map = learner.feature_map();
    writer.Write<std::int32_t>(map.num_frequencies());
    writer.WriteArray(map.projection());
    writer.WriteArray(map.offsets());
    writer.Write<Real>(map.scale());
    for (const BasicRls<Real>& engine : learner.rls_) engine.SaveState(writer);
    writer.Write<std::int64_t>(learner.samples_learned());
    writer.Write<std::int64_t>(learner.updates());
  }

  template <class Real>
  static absl::StatusOr<BasicLearner<Real>> Read(ByteReader& reader, std::uint32_t version) {
    absl::StatusOr<LearnerConfig> config = ReadConfig(reader, version);
    if (!config.ok()) return config.status();
    std::int32_t num_frequencies = 0;
    if (absl::Status status = reader.Read("number of frequencies", num_frequencies); !status.ok()) {
      return status;
    }
    const FeatureMapConfig& features = config->features;
    const int expected_frequencies =
        features.map == FeatureMapKind::kPair ? features.num_features / 2 : features.num_features;
    if (num_frequencies != expected_frequencies) {
      return absl::DataLossError(absl::StrCat(reader.source(), ": ", num_frequencies,
                                              " frequencies do not fit the configuration (",
                                              expected_frequencies, " expected)"));
    }
    std::vector<Real> projection, offsets;
    Real scale = 0;
    const auto rows = static_cast<std::uint64_t>(num_frequencies);
    if (absl::Status status = reader.ReadArray(
            "frequencies", rows * static_cast<std::uint64_t>(features.input_dimension), projection);
        !status.ok()) {
      return status;
    }
    if (absl::Status status = reader.ReadArray("phases", rows, offsets); !status.ok()) return status;
    if (absl::Status status = reader.Read("feature scale", scale); !status.ok()) return status;
    // A damaged size must not make us allocate P before the bytes of P are
    // known to be there.
    const std::uint64_t dimension =
        static_cast<std::uint64_t>(features.num_features) + (config->intercept ? 1 : 0);
    const std::uint64_t outputs = static_cast<std::uint64_t>(config->num_outputs);
    const std::uint64_t engines = config->loss == Loss::kHinge ? outputs : 1;  // one P each
    if (reader.remaining() / sizeof(Real) <
        engines * dimension * (dimension + 1) / 2 + dimension * outputs) {
      return absl::DataLossError(absl::StrCat(reader.source(), ": truncated: ", dimension,
                                              " features and ", outputs,
                                              " outputs need a larger RLS state"));
    }
    BasicFeatureMap<Real> map(features, num_frequencies, std::move(projection), std::move(offsets),
                              scale);
    BasicLearner<Real> learner(*std::move(config), std::move(map));
    for (BasicRls<Real>& engine : learner.rls_) {
      // Format 6 stores float32's factor S; earlier ones P.
      if (absl::Status status = engine.LoadState(reader, version < 6); !status.ok()) return status;
    }
    if (absl::Status status = reader.Read("sample count", learner.samples_learned_); !status.ok()) {
      return status;
    }
    learner.updates_ = learner.samples_learned_;  // version 3: squared loss, every sample
    if (version >= 4) {
      if (absl::Status status = reader.Read("update count", learner.updates_); !status.ok()) {
        return status;
      }
    }
    return learner;
  }

 private:
  static void WriteConfig(ByteWriter& writer, const LearnerConfig& config) {
    const FeatureMapConfig& features = config.features;
    writer.Write<std::int32_t>(features.input_dimension);
    writer.Write<std::int32_t>(features.num_features);
    writer.Write<std::uint32_t>(static_cast<std::uint32_t>(features.map));
    writer.Write<std::uint32_t>(static_cast<std::uint32_t>(features.kernel));
    writer.Write<std::uint32_t>(static_cast<std::uint32_t>(features.sampler));
    writer.Write<double>(features.gamma);
    writer.Write<std::uint64_t>(features.seed);
    writer.WriteArray<double>(features.lengthscales);
    writer.WriteArray<double>(features.input_offset);
    writer.WriteArray<double>(features.input_scale);
    if (features.sampler == FrequencySampler::kLeverage) {
      writer.Write<std::int32_t>(features.selection.candidates);
      writer.WriteArray<std::int32_t>(features.selection.selected);
      writer.WriteArray<double>(features.selection.weights);
    }
    writer.Write<double>(config.ridge);
    writer.Write<double>(config.forgetting);
    writer.Write<std::uint8_t>(config.intercept ? 1 : 0);
    writer.Write<std::int32_t>(config.num_outputs);
    writer.Write<std::uint32_t>(static_cast<std::uint32_t>(config.loss));
  }

  static absl::StatusOr<LearnerConfig> ReadConfig(ByteReader& reader, std::uint32_t version) {
    LearnerConfig config;
    FeatureMapConfig& features = config.features;
    std::uint32_t map = 0, kernel = 0, sampler = 0;
    std::uint8_t intercept = 0;
    absl::Status status = reader.Read("input dimension", features.input_dimension);
    if (status.ok()) status = reader.Read("number of features", features.num_features);
    if (status.ok()) status = reader.Read("feature map kind", map);
    if (status.ok()) status = reader.Read("kernel kind", kernel);
    if (status.ok()) status = reader.Read("frequency sampler", sampler);
    if (status.ok()) status = reader.Read("gamma", features.gamma);
    if (status.ok()) status = reader.Read("seed", features.seed);
    if (!status.ok()) return status;
    if (map > static_cast<std::uint32_t>(FeatureMapKind::kPhase) ||
        kernel > static_cast<std::uint32_t>(KernelKind::kMatern52) ||
        sampler > static_cast<std::uint32_t>(FrequencySampler::kLeverage) ||
        features.input_dimension <= 0) {
      return absl::DataLossError(
          absl::StrCat(reader.source(), ": the configuration is not valid (map kind ", map,
                       ", kernel kind ", kernel, ", input dimension ", features.input_dimension, ")"));
    }
    features.map = static_cast<FeatureMapKind>(map);
    features.kernel = static_cast<KernelKind>(kernel);
    features.sampler = static_cast<FrequencySampler>(sampler);
    const auto dimension = static_cast<std::uint64_t>(features.input_dimension);
    status = reader.ReadOptionalArray("lengthscales", dimension, features.lengthscales);
    if (status.ok()) status = reader.ReadOptionalArray("input offsets", dimension, features.input_offset);
    if (status.ok()) status = reader.ReadOptionalArray("input scales", dimension, features.input_scale);
    if (status.ok() && features.sampler == FrequencySampler::kLeverage &&
        features.num_features > 0) {
      const auto frequencies = static_cast<std::uint64_t>(features.num_frequencies());
      FrequencySelection& selection = features.selection;
      status = reader.Read("leverage candidates", selection.candidates);
      if (status.ok()) status = reader.ReadArray("leverage selection", frequencies, selection.selected);
      if (status.ok()) status = reader.ReadArray("leverage weights", frequencies, selection.weights);
    }
    if (status.ok()) status = reader.Read("ridge", config.ridge);
    if (status.ok()) status = reader.Read("forgetting factor", config.forgetting);
    if (status.ok()) status = reader.Read("intercept flag", intercept);
    if (status.ok()) status = reader.Read("number of outputs", config.num_outputs);
    std::uint32_t loss = 0;  // version 3: squared
    if (status.ok() && version >= 4) status = reader.Read("loss", loss);
    if (!status.ok()) return status;
    if (loss > static_cast<std::uint32_t>(Loss::kHinge)) {
      return absl::DataLossError(absl::StrCat(reader.source(), ": unknown loss ", loss));
    }
    config.loss = static_cast<Loss>(loss);
    config.intercept = intercept != 0;
    if (absl::Status valid = config.Validate(); !valid.ok()) {
      return absl::DataLossError(absl::StrCat(reader.source(), ": invalid configuration: ",
                                              std::string(valid.message())));
    }
    return config;
  }
};

}  // namespace internal

namespace {

constexpr std::array<unsigned char, 8> kMagic = {'R', 'F', 'F', 'C', 'K', 'P', 'T', '\0'};
constexpr std::uint32_t kByteOrderMark = 0x01020304;
constexpr std::size_t kHeaderBytes = kMagic.size() + 3 * sizeof(std::uint32_t);
constexpr std::size_t kChecksumBytes = sizeof(std::uint32_t);

void WriteTask(internal::ByteWriter& writer, const Task& task) {
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
absl::StatusOr<Task> ReadTask(internal::ByteReader& reader, std::uint32_t version) {
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

// Version 5 on: the classes' labels, none or one per class, distinct.
absl::Status ReadClassLabels(internal::ByteReader& reader, Task& task) {
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

// The task must describe the model's inputs and outputs.
absl::Status CheckTaskFitsModel(const Task& task, const LearnerConfig& config) {
  if (task.num_inputs() != config.features.input_dimension ||
      task.num_outputs() != config.num_outputs) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the task has ", task.num_inputs(), " inputs and ", task.num_outputs(),
        " outputs, the model ", config.features.input_dimension, " and ", config.num_outputs));
  }
  return absl::OkStatus();
}

void WriteRegressionMetrics(internal::ByteWriter& writer, const RegressionMetrics& metrics) {
  const RegressionMetrics::State& state = metrics.state();
  writer.Write(state.count);
  writer.Write(state.sum_squared_error);
  writer.Write(state.sum_absolute_error);
  writer.Write(state.target_mean);
  writer.Write(state.target_squared_deviations);
}

absl::StatusOr<RegressionMetrics> ReadRegressionMetrics(internal::ByteReader& reader) {
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

template <class Real>
absl::StatusOr<std::vector<unsigned char>> Serialize(const BasicLearner<Real>& learner,
                                                     const CheckpointRecord& record) {
  if (absl::Status valid = record.task.Validate(); !valid.ok()) return valid;
  if (absl::Status fits = CheckTaskFitsModel(record.task, learner.config()); !fits.ok()) {
    return fits;
  }
  const int classes = record.classification.num_classes();
  if (classes != record.task.num_classes) {
    return absl::InvalidArgumentError(absl::StrCat("checkpoint: classification metrics of ",
                                                   classes, " classes for a task of ",
                                                   record.task.num_classes));
  }
  const std::size_t further = record.further_targets.size();
  if (further != 0 && (record.task.is_classifier() ||
                       further + 1 != static_cast<std::size_t>(record.task.num_outputs()))) {
    return absl::InvalidArgumentError(absl::StrCat("metrics of ", further + 1,
                                                   " targets for a task of ",
                                                   record.task.num_outputs(), " outputs"));
  }
  internal::ByteWriter writer;
  for (unsigned char byte : kMagic) writer.Write(byte);
  writer.Write<std::uint32_t>(kCheckpointFormatVersion);
  writer.Write<std::uint32_t>(kByteOrderMark);
  writer.Write<std::uint32_t>(sizeof(Real));
  internal::CheckpointAccess::Write(writer, learner);
  WriteTask(writer, record.task);
  WriteRegressionMetrics(writer, record.metrics);
  writer.Write<std::int32_t>(classes);
  writer.WriteArray<std::int64_t>(record.classification.confusion_counts());
  writer.Write<std::int32_t>(static_cast<std::int32_t>(further));
  for (const RegressionMetrics& target : record.further_targets) {
    WriteRegressionMetrics(writer, target);
  }
  writer.Write<std::uint64_t>(record.task.class_labels.size());
  for (const std::string& label : record.task.class_labels) writer.WriteString(label);
  WriteRegressionMetrics(writer, record.warm_up.regression);
  writer.Write(record.warm_up.classified);
  writer.Write(record.warm_up.classified_right);
  writer.Write(record.drift_restarts);
  if (writer.non_finite_count() > 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("not saved: the model or its metrics hold ", writer.non_finite_count(),
                     " NaN or infinite numbers, and a checkpoint never does"));
  }
  writer.Write<std::uint32_t>(internal::ExtendCrc32c(0, writer.bytes()));
  return std::move(writer.bytes());
}

// Checks everything in the header; returns the bytes per real it declares.
absl::StatusOr<std::uint32_t> CheckHeader(std::span<const unsigned char> bytes,
                                          const std::string& source) {
  if (bytes.size() < kMagic.size() ||
      !std::equal(kMagic.begin(), kMagic.end(), bytes.begin())) {
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": not an rffstream checkpoint (bad magic bytes)"));
  }
  internal::ByteReader reader(bytes.subspan(kMagic.size()), source);
  std::uint32_t version = 0, byte_order = 0, real_bytes = 0;
  if (absl::Status status = reader.Read("format version", version); !status.ok()) return status;
  if (version < kOldestCheckpointFormatVersion || version > kCheckpointFormatVersion) {
    return absl::FailedPreconditionError(absl::StrCat(
        source, ": unsupported checkpoint format version ", version, " (this build reads versions ",
        kOldestCheckpointFormatVersion, " to ", kCheckpointFormatVersion, ")"));
  }
  if (absl::Status status = reader.Read("byte-order mark", byte_order); !status.ok()) return status;
  if (byte_order != kByteOrderMark) {
    return absl::FailedPreconditionError(absl::StrCat(
        source, ": written on a machine of the other byte order (or corrupted header)"));
  }
  if (absl::Status status = reader.Read("precision", real_bytes); !status.ok()) return status;
  if (real_bytes != 4 && real_bytes != 8) {
    return absl::DataLossError(
        absl::StrCat(source, ": precision field says ", real_bytes, " bytes per number (4 or 8)"));
  }
  return real_bytes;
}

template <class Real>
absl::StatusOr<BasicCheckpoint<Real>> Deserialize(std::span<const unsigned char> bytes,
                                                  const std::string& source) {
  absl::StatusOr<std::uint32_t> real_bytes = CheckHeader(bytes, source);
  if (!real_bytes.ok()) return real_bytes.status();
  if (*real_bytes != sizeof(Real)) {
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": holds a float", 8 * *real_bytes, " model, not float",
                     8 * sizeof(Real), " (use --precision=float", 8 * *real_bytes, ")"));
  }
  if (bytes.size() < kHeaderBytes + kChecksumBytes) {
    return absl::DataLossError(absl::StrCat(source, ": truncated (", bytes.size(), " bytes)"));
  }
  const std::span<const unsigned char> content = bytes.first(bytes.size() - kChecksumBytes);
  std::uint32_t stored_checksum = 0;
  std::memcpy(&stored_checksum, bytes.data() + content.size(), kChecksumBytes);
  if (internal::ExtendCrc32c(0, content) != stored_checksum) {
    return absl::DataLossError(
        absl::StrCat(source, ": checksum mismatch (the file is corrupted or truncated)"));
  }
  std::uint32_t version = 0;  // checked by CheckHeader
  std::memcpy(&version, bytes.data() + kMagic.size(), sizeof(version));
  internal::ByteReader reader(content.subspan(kHeaderBytes), source);
  absl::StatusOr<BasicLearner<Real>> learner =
      internal::CheckpointAccess::Read<Real>(reader, version);
  if (!learner.ok()) return learner.status();
  absl::StatusOr<Task> task = ReadTask(reader, version);
  if (!task.ok()) return task.status();
  // The fit first: it bounds the field count by the model's own size.
  absl::Status valid = CheckTaskFitsModel(*task, learner->config());
  if (valid.ok()) valid = task->Validate();
  if (!valid.ok()) {
    return absl::DataLossError(absl::StrCat(source, ": ", std::string(valid.message())));
  }
  absl::StatusOr<RegressionMetrics> metrics = ReadRegressionMetrics(reader);
  if (!metrics.ok()) return metrics.status();
  std::int32_t classes = 0;
  std::vector<std::int64_t> confusion;
  absl::Status status = reader.Read("classification metrics", classes);
  if (status.ok() && classes != task->num_classes) {
    status = absl::DataLossError(absl::StrCat(source, ": classification metrics of ", classes,
                                              " classes for a task of ", task->num_classes));
  }
  const auto cells = static_cast<std::uint64_t>(classes) * static_cast<std::uint64_t>(classes);
  if (status.ok()) status = reader.ReadArray("confusion counts", cells, confusion);
  if (!status.ok()) return status;
  // The counts must be non-negative and their sum must fit.
  std::int64_t total = 0;
  const bool counts_valid =
      std::all_of(confusion.begin(), confusion.end(), [&](std::int64_t count) {
        return count >= 0 && !__builtin_add_overflow(total, count, &total);
      });
  if (!counts_valid) {
    return absl::DataLossError(absl::StrCat(source, ": impossible sample counts in the metrics"));
  }
  // Version 3 kept the first target's metrics only.
  std::vector<RegressionMetrics> further_targets;
  if (version >= 4) {
    std::int32_t further = 0;
    if (absl::Status read = reader.Read("number of target metrics", further); !read.ok()) return read;
    if (further != 0 && (task->is_classifier() || further != task->num_outputs() - 1)) {
      return absl::DataLossError(absl::StrCat(source, ": metrics of ", int64_t{further} + 1,
                                              " targets for a task of ", task->num_outputs(),
                                              " outputs"));
    }
    for (std::int32_t target = 0; target < further; ++target) {
      absl::StatusOr<RegressionMetrics> read = ReadRegressionMetrics(reader);
      if (!read.ok()) return read.status();
      further_targets.push_back(*std::move(read));
    }
  }
  if (version >= 5) {
    if (absl::Status read = ReadClassLabels(reader, *task); !read.ok()) return read;
  }
  WarmUpScores warm_up;
  std::int64_t drift_restarts = 0;
  if (version >= 7) {
    absl::StatusOr<RegressionMetrics> part = ReadRegressionMetrics(reader);
    if (!part.ok()) return part.status();
    warm_up.regression = *std::move(part);
    absl::Status read = reader.Read("warm-up answers", warm_up.classified);
    if (read.ok()) read = reader.Read("warm-up answers right", warm_up.classified_right);
    if (read.ok()) read = reader.Read("drift restarts", drift_restarts);
    if (!read.ok()) return read;
    if (drift_restarts < 0) {
      return absl::DataLossError(absl::StrCat(source, ": ", drift_restarts, " drift restarts"));
    }
    const bool fits = warm_up.regression.count() <= metrics->count() &&
                      warm_up.classified >= 0 && warm_up.classified_right >= 0 &&
                      warm_up.classified_right <= warm_up.classified && warm_up.classified <= total;
    if (!fits) {
      return absl::DataLossError(
          absl::StrCat(source, ": the warm-up window's metrics are not a part of the metrics"));
    }
  }
  if (reader.remaining() != 0) {
    return absl::DataLossError(
        absl::StrCat(source, ": ", reader.remaining(), " unexpected bytes after the model"));
  }
  return BasicCheckpoint<Real>{
      *std::move(learner),
      CheckpointRecord{*std::move(task), *std::move(metrics),
                       ClassificationMetrics(classes, std::move(confusion)),
                       std::move(further_targets), warm_up, drift_restarts}};
}

absl::StatusOr<std::vector<unsigned char>> ReadWholeFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return absl::NotFoundError(
        absl::StrCat("cannot open checkpoint ", path, ": ", std::strerror(errno)));
  }
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(file)),
                                   std::istreambuf_iterator<char>());
  if (file.bad()) return absl::DataLossError(absl::StrCat("cannot read checkpoint ", path));
  return bytes;
}

}  // namespace

Task DefaultTask(const LearnerConfig& config) {
  Task task;
  task.num_fields = config.features.input_dimension + config.num_outputs;
  for (int output = 0; output < config.num_outputs; ++output) {
    task.target_columns.push_back(config.features.input_dimension + output);
  }
  return task;
}

template <class Real>
absl::Status WriteCheckpoint(std::ostream& out, const BasicLearner<Real>& learner,
                             const CheckpointRecord& record) {
  absl::StatusOr<std::vector<unsigned char>> bytes = Serialize(learner, record);
  if (!bytes.ok()) return bytes.status();
  out.write(reinterpret_cast<const char*>(bytes->data()), static_cast<std::streamsize>(bytes->size()));
  out.flush();
  if (!out) return absl::DataLossError("cannot write checkpoint to the stream");
  return absl::OkStatus();
}

template <class Real>
absl::Status SaveCheckpoint(const std::string& path, const BasicLearner<Real>& learner,
                            const RegressionMetrics& metrics) {
  return SaveCheckpoint(path, learner, CheckpointRecord{DefaultTask(learner.config()), metrics});
}

template <class Real>
absl::Status SaveCheckpoint(const std::string& path, const BasicLearner<Real>& learner,
                            const CheckpointRecord& record) {
  absl::StatusOr<std::vector<unsigned char>> serialized = Serialize(learner, record);
  if (!serialized.ok()) {
    return absl::Status(serialized.status().code(),
                        absl::StrCat(path, ": ", serialized.status().message()));
  }
  return internal::WriteFileAtomically(path, *serialized, "checkpoint");
}

absl::Status CheckCheckpointPath(const std::string& path) {
  return internal::CheckWritablePath(path, "checkpoint");
}

template <class Real>
absl::StatusOr<BasicCheckpoint<Real>> LoadCheckpoint(const std::string& path) {
  absl::StatusOr<std::vector<unsigned char>> bytes = ReadWholeFile(path);
  if (!bytes.ok()) return bytes.status();
  return Deserialize<Real>(*bytes, path);
}

template <class Real>
absl::StatusOr<BasicCheckpoint<Real>> ReadCheckpoint(std::istream& in, std::string_view source) {
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
  return Deserialize<Real>(bytes, std::string(source));
}

absl::StatusOr<int> ReadCheckpointPrecision(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return absl::NotFoundError(
        absl::StrCat("cannot open checkpoint ", path, ": ", std::strerror(errno)));
  }
  std::vector<unsigned char> header(kHeaderBytes);
  file.read(reinterpret_cast<char*>(header.data()), kHeaderBytes);
  header.resize(static_cast<std::size_t>(file.gcount()));
  absl::StatusOr<std::uint32_t> real_bytes = CheckHeader(header, path);
  if (!real_bytes.ok()) return real_bytes.status();
  return static_cast<int>(*real_bytes);
}

template absl::Status SaveCheckpoint(const std::string&, const BasicLearner<float>&,
                                     const RegressionMetrics&);
template absl::Status SaveCheckpoint(const std::string&, const BasicLearner<double>&,
                                     const RegressionMetrics&);
template absl::Status SaveCheckpoint(const std::string&, const BasicLearner<float>&,
                                     const CheckpointRecord&);
template absl::Status SaveCheckpoint(const std::string&, const BasicLearner<double>&,
                                     const CheckpointRecord&);
template absl::Status WriteCheckpoint(std::ostream&, const BasicLearner<float>&,
                                      const CheckpointRecord&);
template absl::Status WriteCheckpoint(std::ostream&, const BasicLearner<double>&,
                                      const CheckpointRecord&);
template absl::StatusOr<BasicCheckpoint<float>> LoadCheckpoint(const std::string&);
template absl::StatusOr<BasicCheckpoint<double>> LoadCheckpoint(const std::string&);
template absl::StatusOr<BasicCheckpoint<float>> ReadCheckpoint(std::istream&, std::string_view);
template absl::StatusOr<BasicCheckpoint<double>> ReadCheckpoint(std::istream&, std::string_view);

}  // namespace rffstream
