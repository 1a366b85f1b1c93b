// The checkpoint's bytes (the format: rffstream/checkpoint.h): the header,
// the learner, the record beside it and the checksum, encoded and decoded
// with every count bounded by the bytes that are there.
#include "internal/checkpoint_codec.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "internal/byte_buffer.h"
#include "internal/checkpoint_access.h"
#include "internal/checkpoint_record.h"
#include "internal/versioned_record.h"
#include "internal/crc32c.h"

namespace rffstream::internal {
namespace {

constexpr std::array<unsigned char, 8> kMagic = {'R', 'F', 'F', 'C', 'K', 'P', 'T', '\0'};
static_assert(kCheckpointHeaderBytes == kMagic.size() + 3 * sizeof(std::uint32_t));
constexpr std::uint32_t kByteOrderMark = 0x01020304;
constexpr std::size_t kChecksumBytes = sizeof(std::uint32_t);

}  // namespace

template <class Real>
absl::StatusOr<std::vector<unsigned char>> EncodeCheckpoint(const BasicLearner<Real>& learner,
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
  if (absl::Status tracking = CheckDriftTrackingState(record.drift_tracking, record.task);
      !tracking.ok()) {
    return tracking;
  }
  if (absl::Status follow = CheckBandwidthFollowState(record.bandwidth_follow, record.task);
      !follow.ok()) {
    return follow;
  }
  if (absl::Status sound = learner.CheckSound(); !sound.ok()) {
    return absl::FailedPreconditionError(absl::StrCat("not saved: ", sound.message()));
  }
  ByteWriter writer;
  for (unsigned char byte : kMagic) writer.Write(byte);
  writer.Write<std::uint32_t>(kCheckpointFormatVersion);
  writer.Write<std::uint32_t>(kByteOrderMark);
  writer.Write<std::uint32_t>(sizeof(Real));
  CheckpointAccess::Write(writer, learner);
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
  WriteRidgeFollowState(writer, record.ridge_follow);
  WriteDriftTrackingState(writer, record.drift_tracking);
  WriteBandwidthFollowState(writer, record.bandwidth_follow);
  WriteTargetRange(writer, record.target_range);
  CheckpointAccess::WriteInformationFactors(writer, learner);
  writer.WriteArray<double>(record.task.target_offsets);
  WriteRegressionMetrics(writer, record.warm_up.after);
  writer.Write<std::uint8_t>(record.task.text_class_labels ? 1 : 0);
  if (writer.non_finite_count() > 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("not saved: the model or its metrics hold ", writer.non_finite_count(),
                     " NaN or infinite numbers, and a checkpoint never does"));
  }
  writer.Write<std::uint32_t>(ExtendCrc32c(0, writer.bytes()));
  return std::move(writer.bytes());
}

absl::StatusOr<std::uint32_t> CheckCheckpointHeader(std::span<const unsigned char> bytes,
                                                    const std::string& source) {
  if (bytes.size() < kMagic.size() ||
      !std::equal(kMagic.begin(), kMagic.end(), bytes.begin())) {
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": not an rffstream checkpoint (bad magic bytes)"));
  }
  ByteReader reader(bytes.subspan(kMagic.size()), source);
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
absl::StatusOr<BasicCheckpoint<Real>> DecodeCheckpoint(std::span<const unsigned char> bytes,
                                                       const std::string& source) {
  absl::StatusOr<std::uint32_t> real_bytes = CheckCheckpointHeader(bytes, source);
  if (!real_bytes.ok()) return real_bytes.status();
  if (*real_bytes != sizeof(Real)) {
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": holds a float", 8 * *real_bytes, " model, not float",
                     8 * sizeof(Real), " (use --precision=float", 8 * *real_bytes, ")"));
  }
  if (bytes.size() < kCheckpointHeaderBytes + kChecksumBytes) {
    return absl::DataLossError(absl::StrCat(source, ": truncated (", bytes.size(), " bytes)"));
  }
  const std::span<const unsigned char> content = bytes.first(bytes.size() - kChecksumBytes);
  std::uint32_t stored_checksum = 0;
  std::memcpy(&stored_checksum, bytes.data() + content.size(), kChecksumBytes);
  if (ExtendCrc32c(0, content) != stored_checksum) {
    return absl::DataLossError(
        absl::StrCat(source, ": checksum mismatch (the file is corrupted or truncated)"));
  }
  std::uint32_t version = 0;  // checked by CheckCheckpointHeader
  std::memcpy(&version, bytes.data() + kMagic.size(), sizeof(version));
  ByteReader reader(content.subspan(kCheckpointHeaderBytes), source);
  absl::StatusOr<BasicLearner<Real>> learner = CheckpointAccess::Read<Real>(reader, version);
  if (!learner.ok()) return learner.status();
  absl::StatusOr<Task> task = ReadTask(reader, version);
  if (!task.ok()) return task.status();
  // The fit first: it bounds the field count by the model's own size.
  absl::Status valid = CheckTaskFitsModel(*task, learner->config());
  if (valid.ok()) valid = task->Validate();
  if (!valid.ok()) {
    return absl::DataLossError(absl::StrCat(source, ": ", std::string(valid.message())));
  }
  absl::StatusOr<CheckpointRecord> record = ReadRecord(reader, version, *std::move(task));
  if (!record.ok()) return record.status();
  if (version < 14) record->target_range = OlderFileTargetRange(record->task, *learner);
  if (version >= 15) {
    if (absl::Status read = CheckpointAccess::ReadInformationFactors(reader, *learner); !read.ok()) {
      return read;
    }
  }
  if (version >= 17) {
    std::vector<double>& offsets = record->task.target_offsets;
    const int outputs = record->task.is_classifier() ? 0 : record->task.num_outputs();
    if (absl::Status read = reader.ReadOptionalArray("target offsets", outputs, offsets);
        !read.ok()) {
      return read;
    }
    if (absl::Status valid = record->task.Validate(); !valid.ok()) {
      return absl::DataLossError(absl::StrCat(source, ": ", std::string(valid.message())));
    }
    absl::StatusOr<RegressionMetrics> after = ReadRegressionMetrics(reader);
    if (!after.ok()) return after.status();
    record->warm_up.after = *std::move(after);
    if (record->warm_up.after.count() + record->warm_up.regression.count() >
        record->metrics.count()) {
      return absl::DataLossError(absl::StrCat(
          source, ": the metrics after the warm-up window count more answers than the metrics"));
    }
    std::uint8_t text_labels = 0;
    if (absl::Status read = reader.Read("class label kind", text_labels); !read.ok()) return read;
    if (text_labels > 1) {
      return absl::DataLossError(absl::StrCat(source, ": class label kind ",
                                              static_cast<int>(text_labels), " is not 0 or 1"));
    }
    record->task.text_class_labels = text_labels == 1;
  } else {
    record->warm_up.after = record->metrics;
    record->warm_up.after.Remove(record->warm_up.regression);
  }
  if (reader.remaining() != 0) {
    return absl::DataLossError(
        absl::StrCat(source, ": ", reader.remaining(), " unexpected bytes after the model"));
  }
  return BasicCheckpoint<Real>{*std::move(learner), *std::move(record)};
}

template absl::StatusOr<std::vector<unsigned char>> EncodeCheckpoint(const BasicLearner<float>&,
                                                                     const CheckpointRecord&);
template absl::StatusOr<std::vector<unsigned char>> EncodeCheckpoint(const BasicLearner<double>&,
                                                                     const CheckpointRecord&);
template absl::StatusOr<BasicCheckpoint<float>> DecodeCheckpoint(std::span<const unsigned char>,
                                                                 const std::string&);
template absl::StatusOr<BasicCheckpoint<double>> DecodeCheckpoint(std::span<const unsigned char>,
                                                                  const std::string&);

}  // namespace rffstream::internal
