// Inputs far from zero (a clock, a price): the map centres them in double
// before rounding, so float32 keeps their digits (FeatureMap::centres()).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "rffstream/checkpoint.h"
#include "rffstream/learner.h"
#include "tests/checkpoint_fixtures.h"
#include "tests/forced_simd_kernel.h"

namespace rffstream {
namespace {

using namespace rffstream::testing;

constexpr double kClock = 1.7e9;  // a Unix time: float32 steps of 128 here

// Two inputs: a clock with a spread of a few units, and one near zero.
std::vector<double> Sample(int t, double offset) {
  return {offset + 3 * std::sin(0.31 * t) + 0.01 * (t % 7), std::cos(0.17 * t)};
}

double Target(int t) { return std::sin(0.31 * t) * std::cos(0.17 * t) + 0.5 * std::cos(0.17 * t); }

LearnerConfig StandardizedAt(double offset) {
  LearnerConfig config;
  config.features.input_dimension = 2;
  config.features.num_features = 128;
  config.features.gamma = 0.5;
  config.features.input_offset = {offset, 0.0};
  config.features.input_scale = {2.1, 0.7};
  config.ridge = 1e-3;
  return config;
}

TEST_CASE("A clock input maps as the same input near zero, in float32, with every kernel",
          "[feature_map][far_from_zero]") {
  for (const internal::SimdKernelTable* kernels : internal::SupportedSimdKernelTables()) {
    const testing::ForcedSimdKernel forced(kernels->name);
    INFO("kernel " << kernels->name);
    absl::StatusOr<FeatureMapF32> far = FeatureMapF32::Create(StandardizedAt(kClock).features);
    absl::StatusOr<FeatureMapF32> near = FeatureMapF32::Create(StandardizedAt(0).features);
    REQUIRE(far.ok());
    REQUIRE(near.ok());
    CHECK(far->centres()[0] == kClock);
    CHECK(far->centres()[1] == 0.0);  // near zero: folded, its zeros still free
    constexpr int kRows = 13;  // groups of rows and a remainder
    std::vector<double> far_rows, near_rows;
    for (int t = 0; t < kRows; ++t) {
      const std::vector<double> a = Sample(t, kClock), b = Sample(t, 0);
      far_rows.insert(far_rows.end(), a.begin(), a.end());
      near_rows.insert(near_rows.end(), b.begin(), b.end());
    }
    std::vector<float> far_block(kRows * 128), near_block(kRows * 128), single(128);
    far->MapBlock(far_rows, far_block);
    near->MapBlock(near_rows, near_block);
    for (int t = 0; t < kRows; ++t) {
      far->Map(std::span<const double>(far_rows).subspan(2 * t, 2), single);
      for (int i = 0; i < 128; ++i) {
        CHECK(single[i] == far_block[t * 128 + i]);
        // x - μ is exact in double here and rounds alike: the same features.
        CHECK(far_block[t * 128 + i] == Approx(near_block[t * 128 + i]).margin(1e-6));
      }
    }
  }
}

TEST_CASE("float32 learns a stream of clock inputs as float64 does", "[learner][far_from_zero]") {
  absl::StatusOr<LearnerF32> single = LearnerF32::Create(StandardizedAt(kClock));
  absl::StatusOr<Learner> wide = Learner::Create(StandardizedAt(kClock));
  REQUIRE(single.ok());
  REQUIRE(wide.ok());
  double difference = 0, size = 0;
  for (int t = 0; t < 3000; ++t) {
    const std::vector<double> x = Sample(t, kClock);
    const double prior64 = wide->Learn(x, Target(t));
    const double prior32 = single->Learn(x, static_cast<float>(Target(t)));
    REQUIRE(std::isfinite(prior32));
    if (t < 100) continue;
    difference += std::pow(prior32 - prior64, 2);
    size += prior64 * prior64;
  }
  // Before the centring, float32 rounded every clock to a multiple of 128:
  // one input value for the whole stream.
  CHECK(std::sqrt(difference / size) < 1e-3);
}

// A model of format 12 (every mean folded into the phases, no centres),
// made from a new one's bytes.
std::string AsFormat12(const FedModel& fed) {
  const FeatureMap& map = fed.learner.feature_map();
  const auto d = static_cast<std::size_t>(map.input_dimension());
  std::vector<double> folded(map.offsets().begin(), map.offsets().end());
  for (std::size_t i = 0; i < folded.size(); ++i) {
    for (std::size_t j = 0; j < d; ++j) folded[i] -= map.projection()[i * d + j] * map.centres()[j];
  }
  std::string bytes = fed.bytes;
  RemoveVersion13Fields(bytes);
  const std::size_t phase_bytes = folded.size() * sizeof(double);
  const std::size_t at =
      bytes.find(std::string(reinterpret_cast<const char*>(map.offsets().data()), phase_bytes));
  REQUIRE(at != std::string::npos);
  std::memcpy(bytes.data() + at, folded.data(), phase_bytes);
  MarkAsVersion(bytes, 12);
  return bytes;
}

Checkpoint Read(const std::string& bytes) {
  std::stringstream file(bytes);
  absl::StatusOr<Checkpoint> read = ReadCheckpoint<double>(file, "model.rff");
  REQUIRE(read.ok());
  return *std::move(read);
}

TEST_CASE("A checkpoint of format 12 (every mean in the phases) loads, and saves, as it was",
          "[checkpoint][far_from_zero]") {
  LearnerConfig config = SmallConfig(FeatureMapKind::kPhase, 1.0);
  config.features.input_offset = {3.0, 0.2, -5.0};  // inputs 0 and 2 are centred
  config.features.input_scale = {1.0, 1.0, 1.0};
  FedModel fed = FeedAndSerialize(config, 200);
  REQUIRE(fed.learner.feature_map().centres()[0] == 3.0);
  REQUIRE(fed.learner.feature_map().centres()[2] == -5.0);
  Checkpoint loaded = Read(AsFormat12(fed));
  for (const double centre : loaded.learner.feature_map().centres()) CHECK(centre == 0.0);
  // Saved again (format 13), it keeps its own centres: none.
  std::stringstream saved;
  REQUIRE(WriteCheckpoint(saved, loaded.learner, loaded.record).ok());
  const Checkpoint resaved = Read(saved.str());
  // The phases as stored, read with this format's centres, would be another model.
  std::string misread = fed.bytes;
  RemoveVersion13Fields(misread);
  MarkAsVersion(misread, 12);
  const Checkpoint wrong = Read(misread);
  double largest_miss = 0;
  for (int t = 300; t < 320; ++t) {
    const std::vector<double> x = Input<double>(t);
    const double expected = fed.learner.Predict(x);
    CHECK(loaded.learner.Predict(x) == Approx(expected).epsilon(1e-9).margin(1e-12));
    CHECK(resaved.learner.Predict(x) == loaded.learner.Predict(x));
    largest_miss = std::max(largest_miss, std::abs(wrong.learner.Predict(x) - expected));
  }
  CHECK(largest_miss > 1e-3);
}

}  // namespace
}  // namespace rffstream
