// File: apps/core/gzip_input.h
//
// A gzip-compressed input file (`--input=data.csv.gz`, zlib) read as a
// plain stream: a thread decompresses it into a pipe, whose read end the
// line reader reads as it reads any file or pipe. A truncated or corrupt
// file is not mistaken for its end: Finish() names the problem.
#ifndef RFFSTREAM_APPS_GZIP_INPUT_H_
#define RFFSTREAM_APPS_GZIP_INPUT_H_

#include <memory>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace rffstream::app {

class GzipInput {
 public:
  // Whether `path` names a gzip file: it ends with ".gz", or it is a
  // regular file that starts with gzip's magic bytes.
  static bool IsGzip(const std::string& path);

  // Starts decompressing the file at `path`; NotFound when it cannot be opened.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<GzipInput>> Open(const std::string& path);

  GzipInput(const GzipInput&) = delete;
  GzipInput& operator=(const GzipInput&) = delete;
  // Closes the read end (a decompressor still writing stops) and waits.
  ~GzipInput();

  // The decompressed stream's file descriptor, owned by this object.
  int fd() const { return read_fd_; }

  // Once the reader has seen the end (not before: it waits for the
  // decompressor): OK when the whole file was read, or DataLoss naming the
  // file and what was wrong with it.
  [[nodiscard]] absl::Status Finish();

 private:
  GzipInput(std::string path, int file_fd, int read_fd, int write_fd);
  void Decompress(int file_fd, int write_fd);

  const std::string path_;
  int read_fd_;
  std::thread thread_;
  absl::Status status_;  // the decompressor's verdict, read after joining it
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_GZIP_INPUT_H_
