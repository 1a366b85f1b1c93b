#include "rffstream/checkpoint.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "internal/crc32c.h"
#include "tests/checkpoint_fixtures.h"
#include "tests/temp_dir.h"

namespace rffstream {
namespace {

using namespace rffstream::testing;

template <class Real>
void CheckResumeIsExact(FeatureMapKind map, double forgetting, Loss loss = Loss::kSquared) {
  TempDir dir;
  const LearnerConfig config = SmallConfig(map, forgetting, 32, loss);
  absl::StatusOr<BasicLearner<Real>> uninterrupted = BasicLearner<Real>::Create(config);
  absl::StatusOr<BasicLearner<Real>> first_half = BasicLearner<Real>::Create(config);
  REQUIRE(uninterrupted.ok());
  REQUIRE(first_half.ok());
  RegressionMetrics metrics_uninterrupted, metrics_first;
  Feed(*uninterrupted, metrics_uninterrupted, 0, 400);
  Feed(*first_half, metrics_first, 0, 200);
  REQUIRE(SaveCheckpoint(dir.File("model.rff"), *first_half, metrics_first).ok());
  absl::StatusOr<BasicCheckpoint<Real>> resumed = LoadCheckpoint<Real>(dir.File("model.rff"));
  REQUIRE(resumed.ok());
  Feed(resumed->learner, resumed->record.metrics, 200, 400);
  const std::span<const Real> a = uninterrupted->weights(), b = resumed->learner.weights();
  REQUIRE(a.size() == b.size());
  CHECK(std::memcmp(a.data(), b.data(), a.size_bytes()) == 0);  // bit-identical
  const std::vector<double> query = Input<Real>(1000);
  CHECK(uninterrupted->Predict(query) == resumed->learner.Predict(query));
  CHECK(resumed->learner.samples_learned() == 400);
  CHECK(resumed->learner.updates() == uninterrupted->updates());
  CHECK(resumed->learner.config().loss == loss);
  CHECK(resumed->record.metrics.sum_squared_error() == metrics_uninterrupted.sum_squared_error());
  CHECK(resumed->record.metrics.count() == 400);
}

TEST_CASE("Save, load and continue equals never stopping", "[checkpoint]") {
  for (FeatureMapKind map : {FeatureMapKind::kPhase, FeatureMapKind::kPair}) {
    for (double forgetting : {1.0, 0.98}) {
      CheckResumeIsExact<double>(map, forgetting);
      CheckResumeIsExact<float>(map, forgetting);
    }
  }
  CheckResumeIsExact<double>(FeatureMapKind::kPhase, 1.0, Loss::kHinge);
  CheckResumeIsExact<float>(FeatureMapKind::kPhase, 1.0, Loss::kHinge);
}

TEST_CASE("A model that lost positive definiteness refuses samples and says why",
          "[checkpoint][soundness]") {
  // A float64 model whose P has a negative diagonal entry, as rounding can
  // leave the covariance form at a tiny ridge: made by editing a checkpoint.
  FedModel fed = FeedAndSerialize(SmallConfig(FeatureMapKind::kPhase, 1.0), 50);
  std::string bytes = fed.bytes;
  constexpr std::uint64_t kDimension = 33, kCount = kDimension * (kDimension + 1) / 2;
  const std::string count_bytes(reinterpret_cast<const char*>(&kCount), sizeof(kCount));
  const std::size_t at = bytes.find(count_bytes);
  REQUIRE(at != std::string::npos);
  const double negative = -1e6;
  std::memcpy(bytes.data() + at + sizeof(kCount), &negative, sizeof(negative));
  MarkAsVersion(bytes, kCheckpointFormatVersion);
  std::stringstream broken(bytes);
  absl::StatusOr<Checkpoint> loaded = ReadCheckpoint<double>(broken, "broken.rff");
  REQUIRE(loaded.ok());
  CHECK(loaded->learner.CheckSound().ok());  // nothing has shown it yet
  CHECK(std::isnan(loaded->learner.Learn(Input<double>(51), Target<double>(51))));
  const absl::Status sound = loaded->learner.CheckSound();
  CHECK(sound.code() == absl::StatusCode::kFailedPrecondition);
  CHECK(sound.message().find("no longer positive definite in the covariance form (float64); a "
                             "ridge of 0.01 is too small") != std::string::npos);
  CHECK(loaded->learner.samples_learned() == 50);
}

TEST_CASE("Checkpoints round-trip through streams", "[checkpoint]") {
  const FedModel fed = FeedAndSerialize(SmallConfig(FeatureMapKind::kPhase, 1.0), 50);
  const Learner* learner = &fed.learner;
  std::stringstream stream(fed.bytes);
  absl::StatusOr<Checkpoint> loaded = ReadCheckpoint<double>(stream, "memory");
  REQUIRE(loaded.ok());
  CHECK(loaded->learner.Predict(Input<double>(7)) == learner->Predict(Input<double>(7)));
  CHECK(loaded->learner.config().features.input_scale == learner->config().features.input_scale);
}

std::vector<char> SmallCheckpointBytes() {
  const std::string text = FeedAndSerialize(SmallConfig(FeatureMapKind::kPair, 0.99, 4), 10).bytes;
  return {text.begin(), text.end()};
}

absl::Status LoadBytes(const std::vector<char>& bytes) {
  std::stringstream stream(std::string(bytes.begin(), bytes.end()));
  return ReadCheckpoint<double>(stream, "ckpt").status();
}

TEST_CASE("A flipped byte anywhere is rejected with the region's message", "[checkpoint][errors]") {
  const std::vector<char> good = SmallCheckpointBytes();
  REQUIRE(LoadBytes(good).ok());
  for (size_t offset = 0; offset < good.size(); ++offset) {
    std::vector<char> bad = good;
    bad[offset] ^= 0x10;
    const absl::Status status = LoadBytes(bad);
    INFO("offset " << offset << " of " << good.size() << ": " << status.message());
    REQUIRE_FALSE(status.ok());
    const std::string message(status.message());
    if (offset < 8) {
      CHECK(message == "ckpt: not an rffstream checkpoint (bad magic bytes)");
    } else if (offset < 12) {
      CHECK(message.rfind("ckpt: unsupported checkpoint format version", 0) == 0);
    } else if (offset < 16) {
      CHECK(message == "ckpt: written on a machine of the other byte order (or corrupted header)");
    } else if (offset < 20) {
      CHECK(message.rfind("ckpt: precision field says", 0) == 0);
    } else {
      // Configuration, frequencies, P, weights, metrics, and the checksum itself.
      CHECK(message == "ckpt: checksum mismatch (the file is corrupted or truncated)");
    }
  }
}

TEST_CASE("A checkpoint truncated anywhere is rejected", "[checkpoint][errors]") {
  const std::vector<char> good = SmallCheckpointBytes();
  for (size_t length = 0; length < good.size(); ++length) {
    const absl::Status status = LoadBytes(std::vector<char>(good.begin(), good.begin() + length));
    INFO("length " << length << ": " << status.message());
    CHECK_FALSE(status.ok());
  }
}

TEST_CASE("Loading with the wrong precision names both", "[checkpoint][errors]") {
  TempDir dir;
  absl::StatusOr<LearnerF32> learner = LearnerF32::Create(SmallConfig(FeatureMapKind::kPhase, 1.0));
  REQUIRE(learner.ok());
  REQUIRE(SaveCheckpoint(dir.File("f32.rff"), *learner, RegressionMetrics()).ok());
  CHECK(*ReadCheckpointPrecision(dir.File("f32.rff")) == 4);
  CHECK(LoadCheckpoint<double>(dir.File("f32.rff")).status().message() ==
        dir.File("f32.rff") + ": holds a float32 model, not float64 (use --precision=float32)");
}

TEST_CASE("A float32 file whose factor has a diagonal entry not positive is not loaded",
          "[checkpoint][errors]") {
  // An untrained model's factors are L = I and D = I / λ, stored as D on L's
  // diagonal: its first entry is the first such float after the header,
  // followed by the zeros of its column.
  LearnerConfig config = SmallConfig(FeatureMapKind::kPhase, 1.0);
  config.ridge = 0.0123;
  absl::StatusOr<LearnerF32> learner = LearnerF32::Create(config);
  REQUIRE(learner.ok());
  TempDir dir;
  REQUIRE(SaveCheckpoint(dir.File("f32.rff"), *learner, RegressionMetrics()).ok());
  std::ifstream file(dir.File("f32.rff"), std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const float diagonal = static_cast<float>(1.0 / config.ridge);
  std::string entry(sizeof(float), '\0');
  std::memcpy(entry.data(), &diagonal, sizeof(float));
  const std::size_t at = bytes.find(entry + std::string(sizeof(float), '\0'));
  REQUIRE(at != std::string::npos);
  for (const float corrupt : {-diagonal, 0.0f}) {
    std::string bad = bytes;
    std::memcpy(bad.data() + at, &corrupt, sizeof(float));
    const std::uint32_t checksum = internal::ExtendCrc32c(
        0, std::span<const unsigned char>(reinterpret_cast<const unsigned char*>(bad.data()),
                                          bad.size() - 4));
    std::memcpy(bad.data() + bad.size() - 4, &checksum, 4);
    std::istringstream in(bad);
    const absl::Status status = ReadCheckpoint<float>(in, "ckpt").status();
    INFO(status.message());
    CHECK(status.message().find("ckpt: the RLS factor's diagonal entry 0 is ") == 0);
    CHECK(status.message().find(", not positive") != std::string::npos);
  }
  std::istringstream good(bytes);
  CHECK(ReadCheckpoint<float>(good, "ckpt").ok());
}

TEST_CASE("A missing checkpoint file is named", "[checkpoint][errors]") {
  CHECK(LoadCheckpoint<double>("/nonexistent/model.rff").status().message() ==
        "cannot open checkpoint /nonexistent/model.rff: No such file or directory");
  // A directory or a pipe is named as such, and the pipe is not waited on.
  TempDir dir;
  CHECK(LoadCheckpoint<double>(dir.path().string()).status().message() ==
        "cannot read checkpoint " + dir.path().string() + ": it is a directory");
  const std::string pipe = dir.File("pipe");
  REQUIRE(::mkfifo(pipe.c_str(), 0600) == 0);
  CHECK(ReadCheckpointPrecision(pipe).status().message() ==
        "cannot read checkpoint " + pipe + ": it is not a regular file (a device, socket or pipe)");
  CHECK(absl::IsFailedPrecondition(LoadCheckpoint<float>(pipe).status()));
  CHECK(SaveCheckpoint<double>("/nonexistent/model.rff", *Learner::Create(SmallConfig(FeatureMapKind::kPhase, 1.0)),
                               RegressionMetrics())
            .message()
            == std::string("cannot save checkpoint into directory /nonexistent: No such file or directory"));
}

TEST_CASE("A save killed at any moment leaves a loadable checkpoint", "[checkpoint][crash]") {
  TempDir dir;
  const std::string path = dir.File("model.rff");
  absl::StatusOr<Learner> old_model = Learner::Create(SmallConfig(FeatureMapKind::kPhase, 1.0, 256));
  absl::StatusOr<Learner> new_model = Learner::Create(SmallConfig(FeatureMapKind::kPhase, 1.0, 256));
  REQUIRE(old_model.ok());
  REQUIRE(new_model.ok());
  RegressionMetrics metrics;
  Feed(*new_model, metrics, 0, 20);
  REQUIRE(SaveCheckpoint(path, *old_model, RegressionMetrics()).ok());
  const double old_prediction = old_model->Predict(Input<double>(3));
  const double new_prediction = new_model->Predict(Input<double>(3));
  for (int attempt = 0; attempt < 20; ++attempt) {
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {  // saves over and over until killed
      while (true) (void)SaveCheckpoint(path, *new_model, metrics);
    }
    ::usleep(1000 + 1500 * attempt);  // kill at a different point of a save each time
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    absl::StatusOr<Checkpoint> loaded = LoadCheckpoint<double>(path);
    INFO("attempt " << attempt);
    REQUIRE(loaded.ok());
    const double prediction = loaded->learner.Predict(Input<double>(3));
    CHECK((prediction == old_prediction || prediction == new_prediction));
  }
  // The temporaries of killed saves are gone after the next save; one just
  // created (by a save running now) is left alone.
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    std::filesystem::last_write_time(
        entry.path(), std::filesystem::file_time_type::clock::now() - std::chrono::seconds(60));
  }
  std::ofstream(dir.File("model.rff.tmp.young1")) << "being written";
  REQUIRE(SaveCheckpoint(path, *new_model, metrics).ok());
  std::vector<std::string> left;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    left.push_back(entry.path().filename().string());
  }
  std::sort(left.begin(), left.end());
  CHECK(left == std::vector<std::string>{"model.rff", "model.rff.tmp.young1"});
}

TEST_CASE("A model holding a NaN is not saved, and a file holding one is not loaded",
          "[checkpoint][nonfinite][errors]") {
  const std::vector<char> good = SmallCheckpointBytes();
  // The metrics' sum of squared errors sits 4 doubles before the
  // classification metrics (i32 + empty array), the number of further
  // targets' metrics (i32, 0), the follow and tracking states that are
  // none (20, 4 and 8 bytes), the targets' range that is none (two empty
  // arrays, 16 bytes), the engine's bulk flag (a byte, 0), the target
  // offsets that are none (an empty array, 8 bytes), the metrics after the
  // window (40 bytes), the class labels' kind (a byte) and the checksum.
  std::vector<char> bad = good;
  const std::size_t offset = bad.size() - 4 - 1 - 40 - 8 - 1 - 16 - 20 - 4 - 8 - 4 - 4 * 8 - 4;
  const double nan = std::nan("");
  std::memcpy(bad.data() + offset, &nan, sizeof(nan));
  const std::uint32_t checksum = internal::ExtendCrc32c(
      0, std::span<const unsigned char>(reinterpret_cast<const unsigned char*>(bad.data()),
                                        bad.size() - 4));
  std::memcpy(bad.data() + bad.size() - 4, &checksum, 4);
  CHECK(LoadBytes(bad).message() == "ckpt: metrics holds a NaN or infinite number");

  TempDir dir;
  absl::StatusOr<Learner> learner = Learner::Create(SmallConfig(FeatureMapKind::kPhase, 1.0));
  REQUIRE(learner.ok());
  RegressionMetrics poisoned;
  poisoned.Add(std::nan(""), 1.0);
  CHECK(SaveCheckpoint(dir.File("nan.rff"), *learner, poisoned).message() ==
        dir.File("nan.rff") +
            ": not saved: the model or its metrics hold 2 NaN or infinite numbers, and a "
            "checkpoint never does");
}

TEST_CASE("Saving over something that is not a regular file is refused", "[checkpoint][errors]") {
  TempDir dir;
  absl::StatusOr<Learner> learner = Learner::Create(SmallConfig(FeatureMapKind::kPhase, 1.0));
  REQUIRE(learner.ok());
  std::filesystem::create_directory(dir.File("a_directory"));
  for (const std::string path : {std::string("/dev/null"), dir.File("a_directory")}) {
    INFO(path);
    CHECK(SaveCheckpoint(path, *learner, RegressionMetrics()).message() ==
          "cannot save checkpoint " + path +
              ": it exists and is not a regular file (a device, directory, socket or pipe)");
  }
  CHECK(std::filesystem::is_character_file("/dev/null"));
  CHECK(CheckCheckpointPath(dir.File("missing/model.rff")).message() ==
        "cannot save checkpoint into directory " + dir.File("missing") +
            ": No such file or directory");
  CHECK(CheckCheckpointPath(dir.File("model.rff")).ok());
}

}  // namespace
}  // namespace rffstream
