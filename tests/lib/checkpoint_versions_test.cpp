// Checkpoints of older model formats load: each made from a new file by
// removing or rewriting what later formats changed (tests/checkpoint_fixtures.h),
// converted once and learning on as before. The record's later fields:
// checkpoint_record_test.cpp.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "rffstream/checkpoint.h"
#include "tests/checkpoint_fixtures.h"

namespace rffstream {
namespace {

using namespace rffstream::testing;

TEST_CASE("A version 3 checkpoint (before the loss) loads as the squared loss", "[checkpoint]") {
  FedModel fed = FeedAndSerialize(SmallConfig(FeatureMapKind::kPhase, 1.0), 77);
  const Learner* learner = &fed.learner;
  std::string bytes = fed.bytes;
  RemoveVersion7Fields(bytes);
  // Version 3 wrote neither the loss (a u32 after the forgetting factor, the
  // intercept flag and the number of outputs), the update count (an i64
  // after the sample count) nor the further targets' metrics.
  const auto bytes_of = [](auto value) {
    return std::string(reinterpret_cast<const char*>(&value), sizeof(value));
  };
  const std::string config_end = bytes_of(1.0) + '\x01' + bytes_of(std::int32_t{1});
  const std::size_t loss_at = bytes.find(config_end + bytes_of(std::uint32_t{0}));
  REQUIRE(loss_at != std::string::npos);
  bytes.erase(loss_at + config_end.size(), 4);
  const std::string counts = bytes_of(std::int64_t{77}) + bytes_of(std::int64_t{77});
  const std::size_t counts_at = bytes.find(counts);
  REQUIRE(counts_at != std::string::npos);
  bytes.erase(counts_at + 8, 8);
  // Nor the number of further targets' metrics and (version 5) the class
  // labels' count, last before the checksum.
  bytes.erase(bytes.size() - 16, 12);
  MarkAsVersion(bytes, 3);
  std::stringstream version_3(bytes);
  absl::StatusOr<Checkpoint> loaded = ReadCheckpoint<double>(version_3, "v3.rff");
  REQUIRE(loaded.ok());
  CHECK(loaded->learner.config().loss == Loss::kSquared);
  CHECK(loaded->learner.updates() == 77);
  CHECK(loaded->learner.Predict(Input<double>(5)) == learner->Predict(Input<double>(5)));
  // Other versions are named.
  const std::uint32_t future = kCheckpointFormatVersion + 1;
  std::memcpy(bytes.data() + 8, &future, 4);
  std::stringstream next_version(bytes);
  CHECK(ReadCheckpoint<double>(next_version, "next.rff").status().message() ==
        absl::StrCat("next.rff: unsupported checkpoint format version ", future,
                     " (this build reads versions 3 to ", kCheckpointFormatVersion, ")"));
}

// The checkpoint of `learner` with `triangle` where the factor form's L
// and D are: D(D+1)/2 numbers after their count, D = 33 (32 features, the
// intercept). `at` receives where the triangle starts.
template <class Real>
std::string WithTriangle(const BasicLearner<Real>& learner, const std::vector<Real>& triangle,
                         std::size_t& at) {
  std::stringstream written;
  REQUIRE(WriteCheckpoint(written, learner, CheckpointRecord{DefaultTask(learner.config())}).ok());
  std::string bytes = written.str();
  RemoveVersion14Fields(bytes);
  RemoveInputCentres(bytes, learner.feature_map());  // no format that held this had them
  const std::uint64_t count = triangle.size();
  const std::string count_bytes(reinterpret_cast<const char*>(&count), sizeof(count));
  at = bytes.find(count_bytes);
  REQUIRE(at != std::string::npos);
  at += sizeof(count);
  std::memcpy(bytes.data() + at, triangle.data(), triangle.size() * sizeof(Real));
  return bytes;
}

constexpr std::uint64_t kDimension = 33;

// P's upper triangle, row by row: what formats before the factor held.
template <class Real>
std::string WithCovarianceForFactor(const BasicLearner<Real>& learner, std::size_t& at) {
  const std::vector<Real> p = learner.rls().CovarianceMatrix();
  std::vector<Real> upper;
  for (std::uint64_t i = 0; i < kDimension; ++i) {
    for (std::uint64_t j = i; j < kDimension; ++j) upper.push_back(p[i * kDimension + j]);
  }
  return WithTriangle(learner, upper, at);
}

// The Cholesky factor S of P (P = S Sᵀ, S lower triangular), column by
// column: what formats 6 (float32) to 11 held.
template <class Real>
std::string WithCholeskyFactorForFactor(const BasicLearner<Real>& learner, std::size_t& at) {
  const std::vector<Real> p = learner.rls().CovarianceMatrix();
  std::vector<double> s(kDimension * kDimension, 0.0);  // row-major, lower
  for (std::uint64_t j = 0; j < kDimension; ++j) {
    double diagonal = p[j * kDimension + j];
    for (std::uint64_t k = 0; k < j; ++k) diagonal -= s[j * kDimension + k] * s[j * kDimension + k];
    REQUIRE(diagonal > 0);
    s[j * kDimension + j] = std::sqrt(diagonal);
    for (std::uint64_t i = j + 1; i < kDimension; ++i) {
      double entry = p[i * kDimension + j];
      for (std::uint64_t k = 0; k < j; ++k) entry -= s[i * kDimension + k] * s[j * kDimension + k];
      s[i * kDimension + j] = entry / s[j * kDimension + j];
    }
  }
  std::vector<Real> columns;
  for (std::uint64_t j = 0; j < kDimension; ++j) {
    for (std::uint64_t i = j; i < kDimension; ++i) columns.push_back(static_cast<Real>(s[i * kDimension + j]));
  }
  return WithTriangle(learner, columns, at);
}

// A float32 learner fed the first 300 samples.
LearnerF32 FedFloat32Learner(double forgetting) {
  absl::StatusOr<LearnerF32> learner = LearnerF32::Create(SmallConfig(FeatureMapKind::kPhase, forgetting));
  REQUIRE(learner.ok());
  RegressionMetrics metrics;
  Feed(*learner, metrics, 0, 300);
  return *std::move(learner);
}

// `loaded` answers as `original` did when saved (its weights are read as
// they were), and both go on learning alike, to float32's rounding.
void CheckContinuesAsBefore(LearnerF32& loaded, LearnerF32& original) {
  CHECK(loaded.Predict(Input<float>(301)) == original.Predict(Input<float>(301)));
  RegressionMetrics ignored;
  Feed(loaded, ignored, 300, 600);
  Feed(original, ignored, 300, 600);
  CHECK(loaded.Predict(Input<float>(601)) ==
        Approx(original.Predict(Input<float>(601))).epsilon(1e-4).margin(1e-5));
}

TEST_CASE("A float32 checkpoint of format 11 (the Cholesky factor S) loads converted once",
          "[checkpoint][factor]") {
  LearnerF32 learner = FedFloat32Learner(0.999);
  std::size_t at = 0;
  const std::string bytes = WithCholeskyFactorForFactor(learner, at);
  absl::StatusOr<CheckpointF32> loaded = ReadAsVersion<float>(bytes, [](std::string&) {}, 11);
  REQUIRE(loaded.ok());
  // P is the same to float32's rounding.
  const std::vector<float> p = learner.rls().CovarianceMatrix();
  const std::vector<float> converted = loaded->learner.rls().CovarianceMatrix();
  for (std::size_t i = 0; i < p.size(); ++i) {
    CHECK(converted[i] == Approx(p[i]).epsilon(1e-4).margin(1e-4 * std::abs(p[0])));
  }
  // Read as the current format, the same bytes are L and D no longer.
  absl::StatusOr<CheckpointF32> misread = ReadAsVersion<float>(bytes, [](std::string&) {}, 12);
  REQUIRE(misread.ok());
  CHECK(misread->learner.rls().CovarianceMatrix() != p);
  // An S whose square overflows float32 (only a damaged file holds one) is refused.
  std::string damaged = bytes;
  const float huge = 1e20f;
  std::memcpy(damaged.data() + at, &huge, sizeof(huge));
  CHECK(ReadAsVersion<float>(damaged, [](std::string&) {}, 11).status().message() ==
        "v11.rff: the RLS factor's column 0 is outside float32's range");
  CheckContinuesAsBefore(loaded->learner, learner);
}

TEST_CASE("A float32 checkpoint of format 5 (P, not its factor) loads converted once",
          "[checkpoint][factor]") {
  LearnerF32 learner = FedFloat32Learner(1.0);
  std::size_t at = 0;
  const std::string bytes = WithCovarianceForFactor(learner, at);
  absl::StatusOr<CheckpointF32> loaded = ReadAsVersion<float>(bytes, RemoveVersion7Fields, 5);
  REQUIRE(loaded.ok());
  CheckContinuesAsBefore(loaded->learner, learner);
}

TEST_CASE("A float64 checkpoint of format 8 at a ridge below 1e-6 (P) loads converted once",
          "[checkpoint][factor]") {
  LearnerConfig config = SmallConfig(FeatureMapKind::kPhase, 1.0);
  config.ridge = 1e-7;
  absl::StatusOr<Learner> learner = Learner::Create(config);
  REQUIRE(learner.ok());
  REQUIRE(learner->rls().square_root_form());
  RegressionMetrics metrics;
  Feed(*learner, metrics, 0, 300);
  std::size_t at = 0;
  std::string bytes = WithCovarianceForFactor(*learner, at);
  RemoveVersion9Fields(bytes);
  MarkAsVersion(bytes, 8);
  std::stringstream version_8(bytes);
  absl::StatusOr<Checkpoint> loaded = ReadCheckpoint<double>(version_8, "v8.rff");
  REQUIRE(loaded.ok());
  const double answer_after_300 = learner->Predict(Input<double>(301));
  CHECK(loaded->learner.Predict(Input<double>(301)) == answer_after_300);
  RegressionMetrics ignored;
  Feed(loaded->learner, ignored, 300, 600);
  Feed(*learner, metrics, 300, 600);
  CHECK(loaded->learner.Predict(Input<double>(601)) ==
        Approx(learner->Predict(Input<double>(601))).epsilon(1e-9));

  // A P that rounding left indefinite has no factor: the file still loads and
  // answers, marked unsound (it learns nothing more and is not saved again).
  const double negative = -1.0;
  std::memcpy(bytes.data() + at, &negative, sizeof(negative));
  MarkAsVersion(bytes, 8);
  std::stringstream indefinite(bytes);
  absl::StatusOr<Checkpoint> unsound = ReadCheckpoint<double>(indefinite, "v8.rff");
  REQUIRE(unsound.ok());
  CHECK(unsound->learner.Predict(Input<double>(301)) == answer_after_300);
  CHECK(absl::IsFailedPrecondition(unsound->learner.CheckSound()));
  std::stringstream again;
  CHECK(absl::IsFailedPrecondition(WriteCheckpoint(again, unsound->learner,
                                                   CheckpointRecord{DefaultTask(config), metrics})));
}

}  // namespace
}  // namespace rffstream
