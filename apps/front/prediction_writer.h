// File: apps/front/prediction_writer.h
//
// Writes one prediction per input line, buffered, in the shortest form that
// reads back to the same double.
#ifndef RFFSTREAM_APPS_PREDICTION_WRITER_H_
#define RFFSTREAM_APPS_PREDICTION_WRITER_H_

#include <cstdio>
#include <span>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace rffstream::app {

class PredictionWriter {
 public:
  // path "" writes nothing, "-" writes to stdout, anything else to that file.
  [[nodiscard]] static absl::StatusOr<PredictionWriter> Open(const std::string& path);

  PredictionWriter(PredictionWriter&& other) noexcept;
  PredictionWriter& operator=(PredictionWriter&&) = delete;
  ~PredictionWriter();

  // One line of comma-separated values (predictions, a prediction and its
  // variance, a class).
  void WriteValues(std::span<const double> values);
  // The line for an input line that gave no prediction (blank or rejected).
  void WriteEmptyLine();
  // Hands what is buffered to the file now (write errors surface in Close()).
  void Flush();
  // Flushes (and closes a file); reports the first write error.
  [[nodiscard]] absl::Status Close();

  // The output is a pipe whose reader has closed it (`rffstream learn | head`):
  // writing more is pointless, and the run may stop quietly, as Unix filters do.
  bool reader_gone() const { return reader_gone_; }
  // A write failed for another reason (a full disk, say): the run stops at
  // once rather than learn on without answers. OK until then.
  bool failed() const { return write_error_ != 0; }
  absl::Status failure() const;
  // Whether the predictions go to a terminal (where a progress line on
  // standard error would break into them).
  bool on_terminal() const;

 private:
  PredictionWriter(std::FILE* file, bool owns_file, std::string path);

  // After a failed write: notes a closed pipe, or the first other error.
  void NoteWriteError();

  std::FILE* file_;
  bool owns_file_;
  std::string path_;
  bool reader_gone_ = false;
  int write_error_ = 0;  // errno of the first failed write other than EPIPE
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_PREDICTION_WRITER_H_
