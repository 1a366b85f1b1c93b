// LearnerConfig::MemoryBytes against what building a model holds at its
// peak: the frequencies of a float map are sampled in double and converted,
// both copies alive at once (BasicFeatureMap::Create).
#include <catch2/catch.hpp>

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

}  // namespace
}  // namespace rffstream
