#include "rffstream/checkpoint.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
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
    learner.rls_.SaveState(writer);
    writer.Write<std::int64_t>(learner.samples_learned());
  }

  template <class Real>
  static absl::StatusOr<BasicLearner<Real>> Read(ByteReader& reader) {
    absl::StatusOr<LearnerConfig> config = ReadConfig(reader);
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
    BasicFeatureMap<Real> map(features, num_frequencies, std::move(projection), std::move(offsets),
                              scale);
    BasicLearner<Real> learner(*std::move(config), std::move(map));
    if (absl::Status status = learner.rls_.LoadState(reader); !status.ok()) return status;
    if (absl::Status status = reader.Read("sample count", learner.samples_learned_); !status.ok()) {
      return status;
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
    writer.Write<double>(config.ridge);
    writer.Write<double>(config.forgetting);
    writer.Write<std::uint8_t>(config.intercept ? 1 : 0);
    writer.Write<std::int32_t>(config.num_outputs);
  }

  static absl::StatusOr<LearnerConfig> ReadConfig(ByteReader& reader) {
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
        sampler > static_cast<std::uint32_t>(FrequencySampler::kQuasiMonteCarlo) ||
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
    if (status.ok()) status = reader.Read("ridge", config.ridge);
    if (status.ok()) status = reader.Read("forgetting factor", config.forgetting);
    if (status.ok()) status = reader.Read("intercept flag", intercept);
    if (status.ok()) status = reader.Read("number of outputs", config.num_outputs);
    if (!status.ok()) return status;
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

template <class Real>
std::vector<unsigned char> Serialize(const BasicLearner<Real>& learner,
                                     const RegressionMetrics& metrics) {
  internal::ByteWriter writer;
  for (unsigned char byte : kMagic) writer.Write(byte);
  writer.Write<std::uint32_t>(kCheckpointFormatVersion);
  writer.Write<std::uint32_t>(kByteOrderMark);
  writer.Write<std::uint32_t>(sizeof(Real));
  internal::CheckpointAccess::Write(writer, learner);
  const RegressionMetrics::State& state = metrics.state();
  writer.Write(state.count);
  writer.Write(state.sum_squared_error);
  writer.Write(state.sum_absolute_error);
  writer.Write(state.target_mean);
  writer.Write(state.target_squared_deviations);
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
  if (version != kCheckpointFormatVersion) {
    return absl::FailedPreconditionError(
        absl::StrCat(source, ": unsupported checkpoint format version ", version,
                     " (this build reads version ", kCheckpointFormatVersion, ")"));
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
  internal::ByteReader reader(content.subspan(kHeaderBytes), source);
  absl::StatusOr<BasicLearner<Real>> learner = internal::CheckpointAccess::Read<Real>(reader);
  if (!learner.ok()) return learner.status();
  RegressionMetrics::State state;
  absl::Status status = reader.Read("metrics", state.count);
  if (status.ok()) status = reader.Read("metrics", state.sum_squared_error);
  if (status.ok()) status = reader.Read("metrics", state.sum_absolute_error);
  if (status.ok()) status = reader.Read("metrics", state.target_mean);
  if (status.ok()) status = reader.Read("metrics", state.target_squared_deviations);
  if (!status.ok()) return status;
  if (reader.remaining() != 0) {
    return absl::DataLossError(
        absl::StrCat(source, ": ", reader.remaining(), " unexpected bytes after the model"));
  }
  return BasicCheckpoint<Real>{*std::move(learner), RegressionMetrics(state)};
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

absl::Status ErrnoError(std::string_view what, const std::string& path) {
  return absl::InternalError(
      absl::StrCat("cannot ", std::string(what), " ", path, ": ", std::strerror(errno)));
}

// write(2) until done, retrying on EINTR.
bool WriteAll(int fd, std::span<const unsigned char> bytes) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    bytes = bytes.subspan(static_cast<std::size_t>(written));
  }
  return true;
}

}  // namespace

template <class Real>
absl::Status WriteCheckpoint(std::ostream& out, const BasicLearner<Real>& learner,
                             const RegressionMetrics& metrics) {
  const std::vector<unsigned char> bytes = Serialize(learner, metrics);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.flush();
  if (!out) return absl::DataLossError("cannot write checkpoint to the stream");
  return absl::OkStatus();
}

template <class Real>
absl::Status SaveCheckpoint(const std::string& path, const BasicLearner<Real>& learner,
                            const RegressionMetrics& metrics) {
  const std::vector<unsigned char> bytes = Serialize(learner, metrics);
  const std::filesystem::path target(path);
  const std::filesystem::path directory =
      target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  // The temporary file lives in the target's directory so that rename() is
  // atomic (same file system); mkstemp makes concurrent saves use distinct files.
  std::string temporary = (directory / (target.filename().string() + ".tmp.XXXXXX")).string();
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) return ErrnoError("create a temporary file for checkpoint", path);
  ::fchmod(fd, 0644);  // mkstemp's 0600 would make the checkpoint private by accident
  const bool written = WriteAll(fd, bytes) && ::fsync(fd) == 0;
  const int write_errno = errno;
  if (::close(fd) != 0 || !written) {
    errno = written ? errno : write_errno;
    absl::Status error = ErrnoError("write checkpoint", temporary);
    ::unlink(temporary.c_str());
    return error;
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    absl::Status error = ErrnoError("rename the temporary checkpoint onto", path);
    ::unlink(temporary.c_str());
    return error;
  }
  // Make the rename itself durable.
  const int directory_fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory_fd < 0) return ErrnoError("open the directory of checkpoint", path);
  const bool synced = ::fsync(directory_fd) == 0;
  ::close(directory_fd);
  if (!synced) return ErrnoError("fsync the directory of checkpoint", path);
  return absl::OkStatus();
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
template absl::Status WriteCheckpoint(std::ostream&, const BasicLearner<float>&,
                                      const RegressionMetrics&);
template absl::Status WriteCheckpoint(std::ostream&, const BasicLearner<double>&,
                                      const RegressionMetrics&);
template absl::StatusOr<BasicCheckpoint<float>> LoadCheckpoint(const std::string&);
template absl::StatusOr<BasicCheckpoint<double>> LoadCheckpoint(const std::string&);
template absl::StatusOr<BasicCheckpoint<float>> ReadCheckpoint(std::istream&, std::string_view);
template absl::StatusOr<BasicCheckpoint<double>> ReadCheckpoint(std::istream&, std::string_view);

}  // namespace rffstream
