#include "rffstream/checkpoint.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "rffstream/atomic_file.h"
#include "internal/checkpoint_codec.h"

namespace rffstream {
namespace {

// A path that names a directory, a device or a pipe is no checkpoint (and
// opening a pipe would wait for a writer forever); one that does not exist
// is left to the open's message.
absl::Status CheckRegularFile(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0 || S_ISREG(status.st_mode)) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "cannot read checkpoint ", path, ": it is ",
      S_ISDIR(status.st_mode) ? "a directory" : "not a regular file (a device, socket or pipe)"));
}

absl::StatusOr<std::vector<unsigned char>> ReadWholeFile(const std::string& path) {
  if (absl::Status regular = CheckRegularFile(path); !regular.ok()) return regular;
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
  absl::StatusOr<std::vector<unsigned char>> bytes = internal::EncodeCheckpoint(learner, record);
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
  absl::StatusOr<std::vector<unsigned char>> serialized = internal::EncodeCheckpoint(learner, record);
  if (!serialized.ok()) {
    return absl::Status(serialized.status().code(),
                        absl::StrCat(path, ": ", serialized.status().message()));
  }
  return WriteFileAtomically(path, *serialized, "checkpoint");
}

absl::Status CheckCheckpointPath(const std::string& path) {
  return CheckWritablePath(path, "checkpoint");
}

template <class Real>
absl::StatusOr<BasicCheckpoint<Real>> LoadCheckpoint(const std::string& path) {
  absl::StatusOr<std::vector<unsigned char>> bytes = ReadWholeFile(path);
  if (!bytes.ok()) return bytes.status();
  return internal::DecodeCheckpoint<Real>(*bytes, path);
}

template <class Real>
absl::StatusOr<BasicCheckpoint<Real>> ReadCheckpoint(std::istream& in, std::string_view source) {
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
  return internal::DecodeCheckpoint<Real>(bytes, std::string(source));
}

absl::StatusOr<int> ReadCheckpointPrecision(const std::string& path) {
  if (absl::Status regular = CheckRegularFile(path); !regular.ok()) return regular;
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return absl::NotFoundError(
        absl::StrCat("cannot open checkpoint ", path, ": ", std::strerror(errno)));
  }
  std::vector<unsigned char> header(internal::kCheckpointHeaderBytes);
  file.read(reinterpret_cast<char*>(header.data()), internal::kCheckpointHeaderBytes);
  header.resize(static_cast<std::size_t>(file.gcount()));
  absl::StatusOr<std::uint32_t> real_bytes = internal::CheckCheckpointHeader(header, path);
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
