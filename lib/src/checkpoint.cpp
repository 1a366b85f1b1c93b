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
#include "internal/checkpoint_access.h"
#include "internal/checkpoint_record.h"
#include "internal/crc32c.h"

namespace rffstream {
namespace {

constexpr std::array<unsigned char, 8> kMagic = {'R', 'F', 'F', 'C', 'K', 'P', 'T', '\0'};
constexpr std::uint32_t kByteOrderMark = 0x01020304;
constexpr std::size_t kHeaderBytes = kMagic.size() + 3 * sizeof(std::uint32_t);
constexpr std::size_t kChecksumBytes = sizeof(std::uint32_t);

template <class Real>
absl::StatusOr<std::vector<unsigned char>> Serialize(const BasicLearner<Real>& learner,
                                                     const CheckpointRecord& record) {
  if (absl::Status valid = record.task.Validate(); !valid.ok()) return valid;
  if (absl::Status fits = internal::CheckTaskFitsModel(record.task, learner.config()); !fits.ok()) {
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
  internal::WriteTask(writer, record.task);
  internal::WriteRegressionMetrics(writer, record.metrics);
  writer.Write<std::int32_t>(classes);
  writer.WriteArray<std::int64_t>(record.classification.confusion_counts());
  writer.Write<std::int32_t>(static_cast<std::int32_t>(further));
  for (const RegressionMetrics& target : record.further_targets) {
    internal::WriteRegressionMetrics(writer, target);
  }
  writer.Write<std::uint64_t>(record.task.class_labels.size());
  for (const std::string& label : record.task.class_labels) writer.WriteString(label);
  internal::WriteRegressionMetrics(writer, record.warm_up.regression);
  writer.Write(record.warm_up.classified);
  writer.Write(record.warm_up.classified_right);
  writer.Write(record.drift_restarts);
  internal::WriteRidgeFollowState(writer, record.ridge_follow);
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
  absl::StatusOr<Task> task = internal::ReadTask(reader, version);
  if (!task.ok()) return task.status();
  // The fit first: it bounds the field count by the model's own size.
  absl::Status valid = internal::CheckTaskFitsModel(*task, learner->config());
  if (valid.ok()) valid = task->Validate();
  if (!valid.ok()) {
    return absl::DataLossError(absl::StrCat(source, ": ", std::string(valid.message())));
  }
  absl::StatusOr<RegressionMetrics> metrics = internal::ReadRegressionMetrics(reader);
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
      absl::StatusOr<RegressionMetrics> read = internal::ReadRegressionMetrics(reader);
      if (!read.ok()) return read.status();
      further_targets.push_back(*std::move(read));
    }
  }
  if (version >= 5) {
    if (absl::Status read = internal::ReadClassLabels(reader, *task); !read.ok()) return read;
  }
  WarmUpScores warm_up;
  std::int64_t drift_restarts = 0;
  if (version >= 7) {
    absl::StatusOr<RegressionMetrics> part = internal::ReadRegressionMetrics(reader);
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
  RidgeFollowState ridge_follow;
  if (version >= 8) {
    absl::StatusOr<RidgeFollowState> read =
        internal::ReadRidgeFollowState(reader, task->num_outputs());
    if (!read.ok()) return read.status();
    ridge_follow = *std::move(read);
  }
  if (reader.remaining() != 0) {
    return absl::DataLossError(
        absl::StrCat(source, ": ", reader.remaining(), " unexpected bytes after the model"));
  }
  return BasicCheckpoint<Real>{
      *std::move(learner),
      CheckpointRecord{*std::move(task), *std::move(metrics),
                       ClassificationMetrics(classes, std::move(confusion)),
                       std::move(further_targets), warm_up, drift_restarts,
                       std::move(ridge_follow)}};
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
