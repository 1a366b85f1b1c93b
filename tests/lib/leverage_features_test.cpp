#include "rffstream/leverage_features.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <vector>

#include "rffstream/checkpoint.h"
#include "rffstream/feature_map.h"
#include "rffstream/learner.h"
#include "tests/temp_dir.h"

namespace rffstream {
namespace {

constexpr int kDimension = 3;

// Rows of a warm-up window: a curve through the input space.
std::vector<double> WindowRows(int rows) {
  std::vector<double> inputs;
  for (int t = 0; t < rows; ++t) {
    inputs.insert(inputs.end(), {std::sin(0.37 * t), std::cos(0.21 * t), 0.5 * std::sin(0.05 * t)});
  }
  return inputs;
}

FeatureMapConfig BaseConfig(FeatureMapKind map, std::uint64_t seed) {
  FeatureMapConfig config;
  config.input_dimension = kDimension;
  config.num_features = 256;
  config.map = map;
  config.gamma = 0.8;
  config.seed = seed;
  return config;
}

TEST_CASE("Leverage features keep weighted candidates of the iid draws", "[leverage]") {
  for (FeatureMapKind kind : {FeatureMapKind::kPhase, FeatureMapKind::kPair}) {
    absl::StatusOr<FeatureMapConfig> chosen =
        SelectFeaturesByLeverage(BaseConfig(kind, 7), 0.01, WindowRows(100), 4);
    REQUIRE(chosen.ok());
    const FrequencySelection& selection = chosen->selection;
    CHECK(chosen->sampler == FrequencySampler::kLeverage);
    CHECK(selection.candidates == 4 * chosen->num_frequencies());
    REQUIRE(static_cast<int>(selection.selected.size()) == chosen->num_frequencies());
    // The candidates are what an iid map of that many frequencies draws:
    // feature s is candidate selected[s], times its weight and the ratio of
    // the two maps' scales.
    FeatureMapConfig candidates = BaseConfig(kind, 7);
    const int frequencies = chosen->num_frequencies();
    candidates.num_features = chosen->num_features * 4;
    absl::StatusOr<FeatureMap> candidate_map = FeatureMap::Create(candidates);
    absl::StatusOr<FeatureMap> map = FeatureMap::Create(*chosen);
    REQUIRE(candidate_map.ok());
    REQUIRE(map.ok());
    const std::vector<double> x = {0.3, -0.4, 0.1};
    std::vector<double> z_candidates(candidates.num_features), z(chosen->num_features);
    candidate_map->Map(x, z_candidates);
    map->Map(x, z);
    const double scale_ratio = map->scale() / candidate_map->scale();
    for (int s = 0; s < frequencies; ++s) {
      const int j = selection.selected[s];
      const double weight = selection.weights[s] * scale_ratio;
      CHECK(z[s] == Approx(weight * z_candidates[j]).margin(1e-12));
      if (kind == FeatureMapKind::kPair) {
        CHECK(z[frequencies + s] ==
              Approx(weight * z_candidates[selection.candidates + j]).margin(1e-12));
      }
    }
    // Every way of mapping applies the weights alike.
    std::vector<double> block(2 * z.size()), range(z.size());
    const std::vector<double> two_rows = {0.3, -0.4, 0.1, 0.3, -0.4, 0.1};
    map->MapBlock(two_rows, block);
    map->MapRange(x, 0, range);
    CHECK(std::memcmp(block.data(), z.data(), z.size() * sizeof(double)) == 0);
    CHECK(std::memcmp(block.data() + z.size(), z.data(), z.size() * sizeof(double)) == 0);
    CHECK(std::memcmp(range.data(), z.data(), z.size() * sizeof(double)) == 0);
  }
}

TEST_CASE("A leverage selection is a function of the seed and the window", "[leverage]") {
  const std::vector<double> window = WindowRows(100);
  absl::StatusOr<FeatureMapConfig> first =
      SelectFeaturesByLeverage(BaseConfig(FeatureMapKind::kPhase, 7), 0.01, window, 4);
  absl::StatusOr<FeatureMapConfig> again =
      SelectFeaturesByLeverage(BaseConfig(FeatureMapKind::kPhase, 7), 0.01, window, 4);
  absl::StatusOr<FeatureMapConfig> other_seed =
      SelectFeaturesByLeverage(BaseConfig(FeatureMapKind::kPhase, 8), 0.01, window, 4);
  REQUIRE(first.ok());
  REQUIRE(again.ok());
  REQUIRE(other_seed.ok());
  CHECK(first->selection.selected == again->selection.selected);
  CHECK(first->selection.weights == again->selection.weights);
  CHECK(first->selection.selected != other_seed->selection.selected);
}

TEST_CASE("Leverage features estimate the kernel without bias", "[leverage][statistical]") {
  // The mean of z(x)·z(y) over 60 seeds against exp(-γ‖x − y‖²), at pairs
  // from near to far, inside the window the scores were computed on. One
  // estimate's standard deviation is below 0.15 (weights ≤ √10), so the
  // mean's is below 0.02: a tolerance of 0.06 is three of them.
  const std::vector<double> window = WindowRows(64);
  const std::vector<std::vector<double>> points = {
      {0.1, 0.9, 0.0}, {0.2, 0.8, 0.05}, {0.6, 0.5, 0.1}, {-0.5, 0.1, -0.2}, {0.9, -0.9, 0.4}};
  const double gamma = BaseConfig(FeatureMapKind::kPhase, 1).gamma;
  std::vector<double> sums(points.size() * points.size(), 0.0);
  constexpr int kSeeds = 60;
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    absl::StatusOr<FeatureMapConfig> chosen =
        SelectFeaturesByLeverage(BaseConfig(FeatureMapKind::kPhase, seed), 0.01, window, 4);
    REQUIRE(chosen.ok());
    absl::StatusOr<FeatureMap> map = FeatureMap::Create(*chosen);
    REQUIRE(map.ok());
    std::vector<std::vector<double>> z(points.size(), std::vector<double>(map->num_features()));
    for (std::size_t p = 0; p < points.size(); ++p) map->Map(points[p], z[p]);
    for (std::size_t a = 0; a < points.size(); ++a) {
      for (std::size_t b = 0; b < points.size(); ++b) {
        double dot = 0;
        for (int i = 0; i < map->num_features(); ++i) dot += z[a][i] * z[b][i];
        sums[a * points.size() + b] += dot;
      }
    }
  }
  for (std::size_t a = 0; a < points.size(); ++a) {
    for (std::size_t b = a; b < points.size(); ++b) {
      double squared_distance = 0;
      for (int j = 0; j < kDimension; ++j) {
        squared_distance += (points[a][j] - points[b][j]) * (points[a][j] - points[b][j]);
      }
      INFO("points " << a << " and " << b);
      CHECK(sums[a * points.size() + b] / kSeeds ==
            Approx(std::exp(-gamma * squared_distance)).margin(0.06));
    }
  }
}

TEST_CASE("A leverage model resumes from its checkpoint exactly", "[leverage][checkpoint]") {
  LearnerConfig config;
  config.features = BaseConfig(FeatureMapKind::kPair, 3);
  config.ridge = 0.01;
  absl::StatusOr<FeatureMapConfig> chosen =
      SelectFeaturesByLeverage(config.features, config.ridge, WindowRows(80));
  REQUIRE(chosen.ok());
  config.features = *chosen;
  absl::StatusOr<Learner> learner = Learner::Create(config);
  REQUIRE(learner.ok());
  const std::vector<double> rows = WindowRows(80);
  RegressionMetrics metrics;
  for (int t = 0; t < 80; ++t) {
    const std::span<const double> x = std::span<const double>(rows).subspan(3 * t, 3);
    metrics.Add(learner->Learn(x, x[0] * x[1]), x[0] * x[1]);
  }
  testing::TempDir dir;
  REQUIRE(SaveCheckpoint(dir.File("leverage.rff"), *learner, metrics).ok());
  absl::StatusOr<Checkpoint> loaded = LoadCheckpoint<double>(dir.File("leverage.rff"));
  REQUIRE(loaded.ok());
  const FrequencySelection& saved = loaded->learner.config().features.selection;
  CHECK(saved.candidates == config.features.selection.candidates);
  CHECK(saved.selected == config.features.selection.selected);
  CHECK(saved.weights == config.features.selection.weights);
  const std::vector<double> query = {0.2, 0.1, -0.3};
  CHECK(loaded->learner.Predict(query) == learner->Predict(query));
}

TEST_CASE("Leverage selections are checked", "[leverage][errors]") {
  FeatureMapConfig config = BaseConfig(FeatureMapKind::kPhase, 1);
  config.sampler = FrequencySampler::kLeverage;
  CHECK(config.Validate().message() ==
        "feature map: the leverage sampler needs a selection made from data "
        "(SelectFeaturesByLeverage)");
  config.selection = {10, std::vector<int>(256, 3), std::vector<double>(256, 1.0)};
  CHECK(config.Validate().ok());
  config.selection.selected[5] = 10;
  CHECK(config.Validate().message() ==
        "feature map: leverage selection entry 5 (candidate 10 of 10, weight 1) is not valid");
  config.selection.selected.pop_back();
  CHECK(config.Validate().message() ==
        "feature map: the leverage selection needs 256 indices and weights over at least one "
        "candidate, got 255 and 256 over 10");
  config.sampler = FrequencySampler::kIid;
  CHECK(config.Validate().message() ==
        "feature map: a frequency selection is for the leverage sampler only, not iid");
  const std::vector<double> one_row = {0.1, 0.2, 0.3};
  CHECK(SelectFeaturesByLeverage(BaseConfig(FeatureMapKind::kPhase, 1), 0.01, one_row)
            .status()
            .message() == "leverage features: needs at least 2 rows of 3 inputs, got 3 numbers");
  CHECK(SelectFeaturesByLeverage(BaseConfig(FeatureMapKind::kPhase, 1), 0, WindowRows(5))
            .status()
            .message() == "leverage features: ridge 0 and candidates per frequency 8 must be positive");
}

}  // namespace
}  // namespace rffstream
