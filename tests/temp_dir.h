// File: tests/temp_dir.h
//
// A fresh directory under the system temp dir, removed with everything in it
// when the test is done: tests write real files, and clean up after themselves.
#ifndef RFFSTREAM_TESTS_TEMP_DIR_H_
#define RFFSTREAM_TESTS_TEMP_DIR_H_

#include <stdlib.h>

#include <filesystem>
#include <string>

namespace rffstream::testing {

class TempDir {
 public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "rffstream_test_XXXXXX").string();
    path_ = ::mkdtemp(pattern.data());
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() { std::filesystem::remove_all(path_); }

  const std::filesystem::path& path() const { return path_; }
  // The path of `name` inside the directory.
  std::string File(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace rffstream::testing

#endif  // RFFSTREAM_TESTS_TEMP_DIR_H_
