#include "front/prediction_writer.h"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace rffstream::app {

absl::StatusOr<PredictionWriter> PredictionWriter::Open(const std::string& path) {
  if (path.empty()) return PredictionWriter(nullptr, false, path);
  if (path == "-") return PredictionWriter(stdout, false, "standard output");
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) {
    return absl::NotFoundError(absl::StrCat("cannot open predictions file ", path,
                                            " for writing: ", std::strerror(errno)));
  }
  return PredictionWriter(file, true, path);
}

PredictionWriter::PredictionWriter(std::FILE* file, bool owns_file, std::string path)
    : file_(file), owns_file_(owns_file), path_(std::move(path)) {}

PredictionWriter::PredictionWriter(PredictionWriter&& other) noexcept
    : file_(other.file_),
      owns_file_(other.owns_file_),
      path_(std::move(other.path_)),
      reader_gone_(other.reader_gone_),
      write_error_(other.write_error_) {
  other.file_ = nullptr;
  other.owns_file_ = false;
}

PredictionWriter::~PredictionWriter() {
  if (owns_file_ && file_ != nullptr) std::fclose(file_);
}

void PredictionWriter::WriteValues(std::span<const double> values) {
  if (file_ == nullptr) return;
  char text[32];
  for (std::size_t i = 0; i < values.size(); ++i) {
    char* end = std::to_chars(text, text + sizeof(text) - 1, values[i]).ptr;
    *end++ = i + 1 < values.size() ? ',' : '\n';
    const auto length = static_cast<std::size_t>(end - text);
    if (std::fwrite(text, 1, length, file_) != length) NoteWriteError();
  }
}

bool PredictionWriter::on_terminal() const {
  return file_ != nullptr && ::isatty(::fileno(file_)) == 1;
}

void PredictionWriter::WriteEmptyLine() {
  if (file_ != nullptr && std::fputc('\n', file_) == EOF) NoteWriteError();
}

void PredictionWriter::Flush() {
  if (file_ != nullptr && std::fflush(file_) != 0) NoteWriteError();
}

void PredictionWriter::NoteWriteError() {
  if (errno == EPIPE) {
    reader_gone_ = true;
  } else if (write_error_ == 0) {
    write_error_ = errno != 0 ? errno : EIO;
  }
}

absl::Status PredictionWriter::failure() const {
  if (write_error_ == 0) return absl::OkStatus();
  return absl::DataLossError(
      absl::StrCat("cannot write predictions to ", path_, ": ", std::strerror(write_error_)));
}

absl::Status PredictionWriter::Close() {
  if (file_ == nullptr) return absl::OkStatus();
  const bool failed = write_error_ != 0 || std::fflush(file_) != 0 || std::ferror(file_) != 0;
  const int error = write_error_ != 0 ? write_error_ : errno;
  if (failed && error == EPIPE) reader_gone_ = true;
  if (owns_file_) std::fclose(file_);
  file_ = nullptr;
  if (failed) {
    return absl::DataLossError(
        absl::StrCat("cannot write predictions to ", path_, ": ", std::strerror(error)));
  }
  return absl::OkStatus();
}

}  // namespace rffstream::app
