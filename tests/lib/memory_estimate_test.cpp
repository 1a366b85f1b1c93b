// LearnerConfig::MemoryBytes against what building a model holds at its
// peak: the frequencies of a float map are sampled in double and converted,
// both copies alive at once (BasicFeatureMap::Create); what blocks add; a
// P per class for the hinge loss.
#include <catch2/catch.hpp>

#include <string>

#include "rffstream/learner.h"
#include "rffstream/learner_config.h"

namespace rffstream {
namespace {

TEST_CASE("The memory estimate counts a float map's double frequencies while they are converted",
          "[learner][memory]") {
  // Inputs so many that the frequencies outweigh P: 64 × 100,000 numbers.
  LearnerConfig config;
  config.features.input_dimension = 100000;
  config.features.num_features = 64;
  const double frequencies = 64.0 * 100000;
  // double: the sampled copy moved, then transposed (16 bytes a number);
  // float: the double copy and its conversion (12), then two floats (8).
  const double double_bytes = config.MemoryBytes(8), float_bytes = config.MemoryBytes(4);
  CHECK(double_bytes >= 16 * frequencies);
  CHECK(float_bytes >= 12 * frequencies);
  CHECK(float_bytes < 12.2 * frequencies);  // P, the vectors and weights add little here
}

// The factor form's blocks hold a second factor (the sweep's), and bulk
// blocks two (Q and the copy a block writes) besides L: the estimate counts
// them, and the covariance form's Woodbury blocks only their rows.
TEST_CASE("The memory estimate counts the second factors of blocks", "[learner][memory]") {
  LearnerConfig config;
  config.features.input_dimension = 4;
  config.features.num_features = 1023;  // D = 1024 with the intercept
  const double triangle = 1024.0 * 1024;
  const double rows = 1024.0;  // a block row's numbers
  const double one = config.MemoryBytes(4);
  CHECK(config.MemoryBytes(4, 64) - one >= 4 * (triangle + 64 * rows));
  CHECK(config.MemoryBytes(4, 64) - one < 4 * (1.1 * triangle + 3 * 64 * rows));
  CHECK(config.MemoryBytes(4, 1024) - one >= 4 * (2 * triangle + 1024 * rows));
  // float64 at the default ridge keeps the covariance form: rows only.
  CHECK(config.MemoryBytes(8, 1024) - config.MemoryBytes(8) < 8 * 3.1 * 1024 * rows);
  config.ridge = 1e-8;  // the factor form in float64 too
  CHECK(config.MemoryBytes(8, 1024) - config.MemoryBytes(8) >= 8 * 2 * triangle);
}

TEST_CASE("The hinge loss keeps a P per class: its memory estimate says so", "[hinge]") {
  LearnerConfig config;
  config.features.input_dimension = 2;
  config.features.num_features = 1024;
  config.num_outputs = 26;
  config.loss = Loss::kHinge;
  const double hinge = config.MemoryBytes(4);
  config.loss = Loss::kSquared;
  const double squared = config.MemoryBytes(4);
  CHECK(hinge > 24 * squared);
  CHECK(hinge < 26 * squared);
  CHECK(ParseLoss("hinge").value() == Loss::kHinge);
  CHECK(ParseLoss("svm").status().message() == "unknown loss 'svm' (expected squared or hinge)");
}

TEST_CASE("A learner larger than the machine's memory is refused before anything is allocated",
          "[learner][memory][errors]") {
  LearnerConfig config;
  config.features.input_dimension = 2;
  config.features.num_features = 1 << 30;  // P alone: 2^60 numbers
  const absl::StatusOr<LearnerF32> huge = LearnerF32::Create(config);
  REQUIRE(huge.status().code() == absl::StatusCode::kResourceExhausted);
  CHECK(huge.status().message().find("1073741824 features need about ") != std::string::npos);
  CHECK(huge.status().message().find("more than this machine's") != std::string::npos);
}

}  // namespace
}  // namespace rffstream
