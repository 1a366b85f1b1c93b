// What `learn`, `predict` and `merge` do with files a user cares about: no
// output overwrites an input, a failed write stops the run but never loses
// the model, a failing periodic save backs off, a run that learned nothing
// says so, a model that lost its soundness is not saved over the good one;
// the built binary on real files, /dev/full for a full disk.
#include <sys/stat.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "internal/crc32c.h"
#include "tests/app_process.h"

namespace {

using namespace rffstream::testing;

std::size_t Count(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

const std::string kFixedSettings = " --quiet --standardize=0 --gamma=0.5 --ridge=0.01 --features=16";

TEST_CASE("An output that names an input is refused before anything is written",
          "[app][files][errors]") {
  TempDir dir;
  const std::string data = dir.File("d.csv"), model = dir.File("m.rff");
  const std::string csv = SmoothCsv(100);
  std::ofstream(data) << csv;
  REQUIRE(RunApp("learn" + kFixedSettings + " --input=" + data + " --save=" + model, "").exit_code ==
          0);
  const std::string model_bytes = ReadText(model);
  std::filesystem::create_symlink(data, dir.File("link.csv"));
  for (const std::string& flags :
       {" --input=" + data + " --predictions=" + data, " --input=" + data + " --metrics_out=" + data,
        " --input=" + data + " --save=" + data, " --input=" + data + " --predictions=" + dir.File("link.csv"),
        " --input=" + data + " --predictions=" + dir.File("p") + " --metrics_out=" + dir.File("p"),
        " --input=" + data + " --load=" + model + " --predictions=" + model}) {
    INFO(flags);
    const RunResult run = RunApp("learn" + flags, "");
    CHECK(run.exit_code == 2);
    CHECK(run.err.find("is the same file as") != std::string::npos);
  }
  const RunResult predict =
      RunApp("predict --load=" + model + " --input=" + data + " --predictions=" + model, "");
  CHECK(predict.exit_code == 2);
  CHECK(predict.err.find("--predictions=" + model + " is the same file as --load=" + model) !=
        std::string::npos);
  CHECK(ReadText(data) == csv);
  CHECK(ReadText(model) == model_bytes);
  // Standard error appended to the input would be read back as data: the
  // refusal is the one line it writes there.
  const std::string logged_into_input = std::string(RFFSTREAM_APP_PATH) + " learn" + kFixedSettings +
                                        " --input=" + data + " 2>>" + data + " >/dev/null";
  const int status = std::system(logged_into_input.c_str());
  CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 2));
  CHECK(ReadText(data).rfind(csv + "rffstream learn: standard error is the same file as --input=", 0) ==
        0);
  std::ofstream(data) << csv;
  // Learning on from a model and saving it back is the usual way, and safe:
  // the model is replaced whole once the new one is written.
  CHECK(RunApp("learn" + kFixedSettings + " --input=" + data + " --load=" + model + " --save=" + model,
               "")
            .exit_code == 0);
}

TEST_CASE("merge refuses a model given twice and an output that is one of its inputs",
          "[app][files][errors]") {
  TempDir dir;
  const std::string a = dir.File("a.rff"), b = dir.File("b.rff");
  std::ofstream(dir.File("d.csv")) << SmoothCsv(100);
  for (const std::string& model : {a, b}) {
    REQUIRE(RunApp("learn" + kFixedSettings + " --input=" + dir.File("d.csv") + " --save=" + model, "")
                .exit_code == 0);
  }
  const RunResult twice = RunApp("merge --save=" + dir.File("o.rff") + " " + a + " " + a, "");
  CHECK(twice.exit_code == 2);
  CHECK(twice.err.find("would count its samples twice") != std::string::npos);
  const RunResult onto_input = RunApp("merge --save=" + a + " " + a + " " + b, "");
  CHECK(onto_input.exit_code == 2);
  CHECK(onto_input.err.find("--save=" + a + " is the same file as model 1=" + a) !=
        std::string::npos);
  CHECK(RunApp("merge --save=" + dir.File("o.rff") + " " + a + " " + b, "").exit_code == 0);
}

TEST_CASE("A full disk for the predictions stops learn at once, and the model is still saved",
          "[app][files][errors]") {
  TempDir dir;
  const std::string model = dir.File("m.rff");
  std::ofstream(dir.File("d.csv")) << SmoothCsv(20000);
  const RunResult run = RunApp("learn" + kFixedSettings + " --input=" + dir.File("d.csv") +
                                   " --predictions=/dev/full --save=" + model,
                               "");
  INFO(run.err);
  CHECK(run.exit_code == 1);
  CHECK(run.err.find("cannot write predictions to /dev/full: No space left on device") !=
        std::string::npos);
  // Stopped at the first failed write, not after reading all 20000 lines.
  const RunResult exported = RunApp("export --load=" + model, "");
  REQUIRE(exported.exit_code == 0);
  const std::size_t at = exported.out.find("\"samples_learned\": ");
  REQUIRE(at != std::string::npos);
  const long learned = std::stol(exported.out.substr(at + 19));
  CHECK(learned > 0);
  CHECK(learned < 20000);
}

TEST_CASE("A periodic save that keeps failing backs off and is reported once",
          "[app][files][errors]") {
  TempDir dir;
  const std::string models = dir.File("models");
  std::filesystem::create_directory(models);
  // The directory is there at the start, so --save is accepted; it is gone
  // when the later saves come due (a disk that went away, say).
  TempDir run_dir;
  std::ofstream(run_dir.File("in")) << SmoothCsv(2000);
  const std::string feed = dir.File("feed.sh");
  std::ofstream(feed) << "head -n 10 " << run_dir.File("in") << "; sleep 0.5; rm -rf " << models
                      << "; tail -n +11 " << run_dir.File("in") << "\n";
  const std::string pipeline = "sh " + feed + " | " + RFFSTREAM_APP_PATH + " learn" +
                               kFixedSettings + " --save_every=1 --save=" + models + "/m.rff 2> " +
                               run_dir.File("err");
  const int status = std::system(pipeline.c_str());
  const std::string err = ReadText(run_dir.File("err"));
  INFO(err);
  CHECK(WEXITSTATUS(status) == 1);  // the last save failed too
  // One message per reason, not one per sample (1990 failing saves before).
  CHECK(Count(err, "retrying less and less often") == 1);
}

TEST_CASE("A run that learned nothing says why and does not exit 0", "[app][files][errors]") {
  TempDir dir;
  const std::string model = dir.File("m.rff");
  const RunResult empty = RunApp("learn --save=" + model, "");
  CHECK(empty.exit_code == 3);
  CHECK(empty.err.find(model + " was not saved: stdin held no line to build a model from") !=
        std::string::npos);
  CHECK(empty.err.find("no line was learned (0 read)") != std::string::npos);
  const RunResult header_only = RunApp("learn --header --save=" + model, "a,b,y\n");
  CHECK(header_only.exit_code == 3);
  CHECK(header_only.err.find("no line was learned (1 read)") != std::string::npos);
  const RunResult all_bad = RunApp("learn" + kFixedSettings, "1,2,x\n3,4,y\n");
  CHECK(all_bad.exit_code == 3);
  // A model learned without a header does not take a header of numbers:
  // that would drop the first data line unseen.
  REQUIRE(RunApp("learn" + kFixedSettings + " --save=" + model, SmoothCsv(50)).exit_code == 0);
  const RunResult numeric_header = RunApp("learn --load=" + model + " --header", SmoothCsv(5));
  CHECK(numeric_header.exit_code == 3);
  CHECK(numeric_header.err.find("holds only numbers, and the model from " + model +
                                " was learned without a header") != std::string::npos);
}

TEST_CASE("Flag values that would silently mean something else are refused", "[app][flags][errors]") {
  const std::string csv = SmoothCsv(20);
  for (const auto& [flags, reason] : std::initializer_list<std::pair<std::string, std::string>>{
           {"--gamma=0", "--gamma=0: must be a positive number"},
           {"--gamma=-1", "must be a positive number"},
           {"--save_interval=nan --save=/tmp/rffstream_never.rff", "must be >= 0 and finite"},
           {"--target=0 --targets=1,2", "--target and --targets are exclusive"}}) {
    INFO(flags);
    const RunResult run = RunApp("learn " + flags, csv);
    CHECK(run.exit_code == 2);
    CHECK(run.err.find(reason) != std::string::npos);
  }
  const RunResult fields = RunApp("serve --fields=1", "");
  CHECK(fields.exit_code == 2);
  CHECK(fields.err.find("--fields=1: a data line has at least 2 fields") != std::string::npos);
}

TEST_CASE("Thousands of classes: the summary names the worst confusions, --metrics_out has all",
          "[app][classes]") {
  TempDir dir;
  std::string csv;
  for (int t = 0; t < 400; ++t) csv += std::to_string(0.01 * t) + "," + std::to_string(t % 40) + "\n";
  const RunResult run = RunApp("learn --classes=40 --features=16 --standardize=0 --gamma=0.5 "
                               "--ridge=0.01 --metrics_out=" + dir.File("curve.jsonl"),
                               csv);
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.err.find("largest confusions of 40 classes") != std::string::npos);
  CHECK(run.err.find("confusion counts (row") == std::string::npos);
  const std::vector<std::string> rows = Lines(ReadText(dir.File("curve.jsonl")));
  REQUIRE_FALSE(rows.empty());
  const std::string& last = rows.back();
  CHECK(last.find("\"samples\":400") != std::string::npos);
  CHECK(Count(last, "],[") == 39);  // 40 rows of the matrix
}

TEST_CASE("A model that lost its soundness stops learn, and the last good checkpoint stays",
          "[app][files][soundness]") {
  TempDir dir;
  const std::string model = dir.File("m.rff");
  // float64: the covariance form, whose P rounding can leave unsound.
  REQUIRE(RunApp("learn --quiet --precision=float64 --standardize=0 --gamma=0.5 --ridge=0.01 "
                 "--features=32 --save=" + model,
                 SmoothCsv(60))
              .exit_code == 0);
  // P with a negative diagonal entry (as rounding leaves a float64 covariance
  // form at a tiny ridge): the triangle follows its count, 33 · 34 / 2.
  std::string bytes = ReadText(model);
  const std::uint64_t count = 33 * 34 / 2;
  const std::size_t at = bytes.find(std::string(reinterpret_cast<const char*>(&count), sizeof(count)));
  REQUIRE(at != std::string::npos);
  const double negative = -1e6;
  std::memcpy(bytes.data() + at + sizeof(count), &negative, sizeof(negative));
  const std::uint32_t checksum = rffstream::internal::ExtendCrc32c(
      0, std::span<const unsigned char>(reinterpret_cast<const unsigned char*>(bytes.data()),
                                        bytes.size() - 4));
  std::memcpy(bytes.data() + bytes.size() - 4, &checksum, 4);
  std::ofstream(model, std::ios::binary) << bytes;
  const RunResult run = RunApp("learn --load=" + model + " --save=" + model, SmoothCsv(40));
  INFO(run.err);
  CHECK(run.exit_code == 3);
  CHECK(run.err.find("numerical precision lost after 60 samples") != std::string::npos);
  CHECK(run.err.find("too large for the model") == std::string::npos);  // the model's fault
  CHECK(ReadText(model) == bytes);  // not saved over
}

}  // namespace
