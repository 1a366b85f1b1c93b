// WriteFileAtomically on real files: a symbolic link to a model keeps
// pointing at it (the file it names is replaced, as replicas that follow the
// link expect), a file keeps its permissions, and a failure says by its code
// what went wrong.
#include "rffstream/atomic_file.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/child_process.h"
#include "tests/temp_dir.h"

namespace rffstream {
namespace {

using testing::ReadText;
using testing::TempDir;

std::span<const unsigned char> Bytes(const std::string& text) {
  return {reinterpret_cast<const unsigned char*>(text.data()), text.size()};
}

TEST_CASE("Saving through a symbolic link replaces the file it names, and keeps the link",
          "[files]") {
  TempDir dir;
  std::filesystem::create_directory(dir.path() / "models");
  const std::string model = dir.File("models/v1.rff"), link = dir.File("current.rff");
  REQUIRE(WriteFileAtomically(model, Bytes("first"), "test file").ok());
  ::chmod(model.c_str(), 0640);
  std::filesystem::create_symlink("models/v1.rff", link);
  REQUIRE(WriteFileAtomically(link, Bytes("second"), "test file").ok());
  CHECK(std::filesystem::is_symlink(link));
  CHECK(ReadText(model) == "second");
  CHECK(ReadText(link) == "second");
  struct stat status;
  REQUIRE(::stat(model.c_str(), &status) == 0);
  CHECK((status.st_mode & 07777) == 0640);
  // A link to a file not made yet: the file is made, the link stays.
  const std::string later = dir.File("later.rff");
  std::filesystem::create_symlink("models/v2.rff", later);
  REQUIRE(WriteFileAtomically(later, Bytes("third"), "test file").ok());
  CHECK(std::filesystem::is_symlink(later));
  CHECK(ReadText(dir.File("models/v2.rff")) == "third");
  // A new file gets the usual 0644, not mkstemp's private 0600.
  const std::string fresh = dir.File("fresh.rff");
  REQUIRE(WriteFileAtomically(fresh, Bytes("x"), "test file").ok());
  REQUIRE(::stat(fresh.c_str(), &status) == 0);
  CHECK((status.st_mode & 07777) == 0644);
}

TEST_CASE("A save that cannot happen says why by its code", "[files][errors]") {
  TempDir dir;
  const absl::Status missing =
      WriteFileAtomically(dir.File("no/such/dir/m.rff"), Bytes("x"), "test file");
  CHECK(missing.code() == absl::StatusCode::kNotFound);
  CHECK(missing.message().find("no/such/dir") != std::string::npos);
  CHECK(WriteFileAtomically(dir.path().string(), Bytes("x"), "test file").code() ==
        absl::StatusCode::kFailedPrecondition);  // a directory
}

}  // namespace
}  // namespace rffstream
