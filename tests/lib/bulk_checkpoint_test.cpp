// Checkpoints of a model learning in bulk (rls_bulk.cpp), written to real
// files and read back: a run resumed between bulk blocks has the bits of one
// that never stopped, and an engine holding Q saves Q alone (format 16),
// about half of what L, D and Q together took; a file that holds neither is
// refused by name.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "internal/factor_block_access.h"
#include "rffstream/checkpoint.h"
#include "rffstream/learner.h"
#include "tests/checkpoint_fixtures.h"
#include "tests/temp_dir.h"

namespace rffstream {
namespace {

constexpr int kBulk = BasicRls<double>::kBulkSamples;

LearnerConfig BulkConfig() {
  LearnerConfig config;
  config.features.input_dimension = 3;
  config.features.num_features = 40;
  config.features.gamma = 0.5;
  config.ridge = 1e-3;
  return config;
}

// A checkpoint saved between bulk blocks holds Q and B (format 15), so that
// the resumed run goes on with the bits of one that never stopped; the
// model it holds, settled to L and D, predicts as the running one does.
// (From format 16 it holds Q alone: the test below.)
TEST_CASE("A run resumed from a checkpoint between bulk blocks has the bits of one that never stopped",
          "[rls][bulk][checkpoint]") {
  const LearnerConfig config = BulkConfig();
  std::mt19937 generator(23);
  std::normal_distribution<double> normal;
  std::vector<double> inputs(3 * kBulk * 3);
  for (double& input : inputs) input = normal(generator);
  std::vector<float> targets(kBulk * 3);
  for (int s = 0; s < 3 * kBulk; ++s) targets[s] = static_cast<float>(std::sin(inputs[3 * s]) + inputs[3 * s + 1]);
  const auto block = [&](int b) { return std::span<const double>(inputs).subspan(3 * kBulk * b, 3 * kBulk); };
  const auto block_targets = [&](int b) { return std::span<const float>(targets).subspan(kBulk * b, kBulk); };
  absl::StatusOr<LearnerF32> running = LearnerF32::Create(config);
  REQUIRE(running.ok());
  std::vector<float> priors(kBulk), resumed_priors(kBulk);
  REQUIRE(running->LearnBlock(block(0), block_targets(0), priors) == kBulk);
  const testing::TempDir dir;
  REQUIRE(SaveCheckpoint(dir.File("bulk.rff"), *running, RegressionMetrics()).ok());
  absl::StatusOr<CheckpointF32> resumed = LoadCheckpoint<float>(dir.File("bulk.rff"));
  REQUIRE(resumed.ok());
  const std::vector<double> probe = {0.3, -1.2, 0.8};
  CHECK(resumed->learner.Predict(probe) == running->Predict(probe));
  for (int b = 1; b < 3; ++b) {
    REQUIRE(running->LearnBlock(block(b), block_targets(b), priors) == kBulk);
    REQUIRE(resumed->learner.LearnBlock(block(b), block_targets(b), resumed_priors) == kBulk);
    CHECK(priors == resumed_priors);
  }
  const auto weights = [](const LearnerF32& learner) {
    return std::vector<float>(learner.rls().weights().begin(), learner.rls().weights().end());
  };
  CHECK(weights(resumed->learner) == weights(*running));
  // And one at a time after it: both settle the same Q to the same L, D.
  const std::vector<double> x = {0.1, 0.2, 0.3};
  const float y = 0.5f;
  CHECK(running->Learn(x, y) == resumed->learner.Learn(x, y));
  CHECK(resumed->learner.Predict(probe) == running->Predict(probe));
}

std::string FileBytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

TEST_CASE("An engine holding Q saves Q alone, and a file with neither Q nor L, D is refused",
          "[checkpoint][bulk]") {
  const LearnerConfig config = BulkConfig();
  std::mt19937 generator(29);
  std::normal_distribution<double> normal;
  std::vector<double> inputs(3 * kBulk);
  for (double& input : inputs) input = normal(generator);
  std::vector<float> targets(kBulk), priors(kBulk);
  for (int s = 0; s < kBulk; ++s) targets[s] = static_cast<float>(std::cos(inputs[3 * s + 2]));
  absl::StatusOr<LearnerF32> learner = LearnerF32::Create(config);
  REQUIRE(learner.ok());
  REQUIRE(learner->LearnBlock(inputs, targets, priors) == kBulk);
  const testing::TempDir dir;
  REQUIRE(SaveCheckpoint(dir.File("bulk.rff"), *learner, RegressionMetrics()).ok());
  // One sample at a time settles L, D from Q and drops Q: the same model in the other form.
  LearnerF32 settled = *learner;
  settled.Learn(std::span<const double>(inputs).first(3), 0.5f);
  REQUIRE(SaveCheckpoint(dir.File("settled.rff"), settled, RegressionMetrics()).ok());
  std::string bulk = FileBytes(dir.File("bulk.rff"));
  const std::size_t d = learner->row_length(), q_numbers = d * (d + 1) / 2 + d;
  // Q and B in place of L and D: the same count of numbers, give or take B.
  CHECK(bulk.size() <= FileBytes(dir.File("settled.rff")).size() + d * sizeof(float) + 16);
  // The numbers of Q and B (a u64 count, then them) end the file before its
  // checksum, after the bulk flag, in format 16 (17 adds the target offsets
  // after them, taken out here). With the flag 0 the file holds an empty
  // triangle and no Q: refused by name, never read as a model; without Q's
  // numbers too, it is too short for the model.
  testing::RemoveVersion17Fields(bulk);
  constexpr std::size_t kChecksumBytes = 4, kCountBytes = 8;
  const std::size_t q_bytes = kCountBytes + q_numbers * sizeof(float);
  const std::size_t flag_at = bulk.size() - kChecksumBytes - q_bytes - 1;
  REQUIRE(bulk[flag_at] == 1);
  const auto read = [](std::string bytes) {
    testing::MarkAsVersion(bytes, 16);
    std::stringstream file(bytes);
    return ReadCheckpoint<float>(file, "neither.rff").status();
  };
  std::string neither = bulk;
  neither[flag_at] = 0;
  CHECK(read(neither).message() ==
        "neither.rff: the RLS state holds neither P's factors nor the information factor");
  neither.erase(flag_at + 1, q_bytes);
  CHECK(read(neither).message() == "neither.rff: truncated: 41 features and 1 outputs need a larger RLS state");
  // The file as saved loads, predicting as the model that saved it.
  absl::StatusOr<CheckpointF32> loaded = LoadCheckpoint<float>(dir.File("bulk.rff"));
  REQUIRE(loaded.ok());
  const std::vector<double> probe = {0.4, 0.1, -0.7};
  CHECK(loaded->learner.Predict(probe) == learner->Predict(probe));
  CHECK(loaded->learner.PredictWithVariance(probe).variance ==
        learner->PredictWithVariance(probe).variance);
}

// Format 15 saved an engine holding Q with L and D as well (settled from
// Q): such a file, made here from a new one by putting L and D in place of
// the empty triangle, loads and goes on in bulk with the same bits.
TEST_CASE("A format 15 file of a model learning in bulk, L and D beside Q, loads and goes on alike",
          "[checkpoint][bulk]") {
  std::mt19937 generator(31);
  std::normal_distribution<double> normal;
  std::vector<double> inputs(2 * 3 * kBulk);
  for (double& input : inputs) input = normal(generator);
  std::vector<float> targets(2 * kBulk), priors(kBulk), old_priors(kBulk);
  for (int s = 0; s < 2 * kBulk; ++s) targets[s] = static_cast<float>(inputs[3 * s] * inputs[3 * s + 1]);
  absl::StatusOr<LearnerF32> learner = LearnerF32::Create(BulkConfig());
  REQUIRE(learner.ok());
  const std::span<const double> first(inputs.data(), 3 * kBulk), second(inputs.data() + 3 * kBulk, 3 * kBulk);
  REQUIRE(learner->LearnBlock(first, std::span<const float>(targets).first(kBulk), priors) == kBulk);
  std::stringstream saved;
  REQUIRE(WriteCheckpoint(saved, *learner, CheckpointRecord{DefaultTask(learner->config()), {}}).ok());
  std::string bytes = saved.str();
  // The triangle, L with D on its diagonal, from the settled model.
  const std::size_t d = learner->row_length();
  const std::vector<double> state = internal::FactorBlockAccess::FactorState(learner->rls());
  const std::size_t stride = (state.size() - d - 4) / d;
  std::vector<float> triangle;
  for (std::size_t i = 0; i < d; ++i) {
    for (std::size_t j = i; j < d; ++j) {
      triangle.push_back(static_cast<float>(j == i ? state[d * stride + i] : state[i * stride + j]));
    }
  }
  // The empty triangle: a zero count, then the pending terms 1, 0, 0 and the gain's count.
  std::string empty(8, '\0');
  const float pending[3] = {1.0f, 0.0f, 0.0f};
  empty.append(reinterpret_cast<const char*>(pending), sizeof(pending));
  const std::uint64_t gain_count = d;
  empty.append(reinterpret_cast<const char*>(&gain_count), sizeof(gain_count));
  const std::size_t at = bytes.find(empty);
  REQUIRE(at != std::string::npos);
  REQUIRE(bytes.find(empty, at + 1) == std::string::npos);
  const std::uint64_t count = triangle.size();
  bytes.replace(at, sizeof(count),
                std::string(reinterpret_cast<const char*>(&count), sizeof(count)) +
                    std::string(reinterpret_cast<const char*>(triangle.data()), triangle.size() * sizeof(float)));
  const absl::StatusOr<CheckpointF32> current = ReadCheckpoint<float>(saved, "v16.rff");
  absl::StatusOr<CheckpointF32> old = testing::ReadAsVersion<float>(bytes, testing::RemoveVersion17Fields, 15);
  REQUIRE(current.ok());
  REQUIRE(old.ok());
  LearnerF32 resumed = current->learner;
  const std::vector<double> probe = {-0.2, 0.9, 0.5};
  CHECK(old->learner.Predict(probe) == resumed.Predict(probe));
  REQUIRE(resumed.LearnBlock(second, std::span<const float>(targets).last(kBulk), priors) == kBulk);
  REQUIRE(old->learner.LearnBlock(second, std::span<const float>(targets).last(kBulk), old_priors) == kBulk);
  CHECK(priors == old_priors);
  CHECK(old->learner.Predict(probe) == resumed.Predict(probe));
}

}  // namespace
}  // namespace rffstream
