// --ridge=auto's later choices (rffstream/stream/ridge_follower.h) made by a
// float32 model, against the same choices made by a float64 model of the
// same stream; and the candidates each precision can judge.
#include "rffstream/stream/ridge_follower.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "rffstream/ridge_by_gcv.h"

namespace rffstream {
namespace {

TEST_CASE("The candidates stop above what the precision can judge", "[ridge_follower]") {
  // float64: every candidate, for any ridge and size a model has.
  CHECK(RidgeFollower<double>::ReliableCandidates(10.0, 10000) == RidgeCandidates());
  // float32 from λ = 1 at D = 257: 5 · 257 · 2⁻²³ ≈ 1.5e-4, so 3.16e-4 first.
  const std::vector<double> coarse = RidgeFollower<float>::ReliableCandidates(1.0, 257);
  REQUIRE(!coarse.empty());
  CHECK(coarse.front() == Approx(std::sqrt(10.0) * 1e-4));
  CHECK(coarse.back() == RidgeCandidates().back());
  // From a small ridge, float32 judges them all.
  CHECK(RidgeFollower<float>::ReliableCandidates(1e-3, 257) == RidgeCandidates());
}

// Friedman #1 with 8 inputs, learned one sample at a time with a
// follower, as the model stage does after a 256-line window.
template <class Real>
std::vector<RidgeFollowState::Change> Follow(double start_ridge, int samples) {
  LearnerConfig config;
  config.features.input_dimension = 8;
  config.features.num_features = 128;
  config.features.gamma = 0.05;
  config.features.seed = 9;
  config.ridge = start_ridge;
  absl::StatusOr<BasicLearner<Real>> learner = BasicLearner<Real>::Create(config);
  REQUIRE(learner.ok());
  RidgeFollower<Real> follower(1);
  follower.WindowEnded(256, start_ridge);
  std::uint64_t state = 12345;
  const auto uniform = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) * 0x1.0p-53;
  };
  std::vector<double> x(8);
  for (int t = 0; t < samples; ++t) {
    for (double& value : x) value = static_cast<Real>(uniform());
    const double y = 10 * std::sin(M_PI * x[0] * x[1]) + 20 * (x[2] - 0.5) * (x[2] - 0.5) +
                     10 * x[3] + 5 * x[4] + (uniform() - 0.5);
    const Real target = static_cast<Real>(y);
    (void)learner->Learn(x, target);
    follower.Learned(std::span<const Real>(&target, 1));
    follower.MaybeRechoose(t + 1, *learner);
  }
  REQUIRE(learner->CheckSound().ok());
  return follower.changes();
}

TEST_CASE("A float32 model's ridge follows the stream to where float64's goes",
          "[ridge_follower]") {
  // From 0.1, float32's first choice stops at its floor (1e-5 here, where
  // float64 goes to 1e-6): it gets there at the next choice.
  for (const double start : {1e-2, 1e-1}) {
    INFO("starting ridge " << start);
    const std::vector<RidgeFollowState::Change> wide = Follow<double>(start, 4096);
    const std::vector<RidgeFollowState::Change> single = Follow<float>(start, 4096);
    for (const auto& c : wide) UNSCOPED_INFO("float64: line " << c.line << " " << c.from << " -> " << c.to);
    for (const auto& c : single) UNSCOPED_INFO("float32: line " << c.line << " " << c.from << " -> " << c.to);
    REQUIRE(!wide.empty());
    REQUIRE(!single.empty());
    CHECK(single.front().line == wide.front().line);
    // float64's first choice, or the least candidate float32's floor allows.
    const double least = RidgeFollower<float>::ReliableCandidates(start, 129).front();
    CHECK(single.front().to == Approx(std::max(wide.front().to, least)));
    // In the end, one step of the grid (a factor √10) apart at most.
    CHECK(std::abs(std::log10(single.back().to / wide.back().to)) <= 0.5 + 1e-9);
  }
}

}  // namespace
}  // namespace rffstream
