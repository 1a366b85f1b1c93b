#include "rffstream/feature_map.h"

#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <numeric>
#include <vector>

#include "internal/simd_kernels.h"
#include "tests/forced_simd_kernel.h"
#include "tests/kernel_estimate.h"

namespace rffstream {
namespace {

// The features pass through the dispatched trig kernel, whose double-precision
// contract is a few ulp; 1e-14 absolute on values of magnitude <= 1 covers it
// while still catching any wrong formula.
constexpr double kFeatureTolerance = 1e-14;

FeatureMapConfig SmallConfig(FeatureMapKind map) {
  FeatureMapConfig config;
  config.input_dimension = 3;
  config.num_features = 6;
  config.gamma = 0.5;
  config.seed = 7;
  config.map = map;
  return config;
}

TEST_CASE("Golden feature vectors for a fixed seed and input", "[feature_map]") {
  // Pins the whole path seed -> frequencies -> features for both maps.
  const double x[3] = {0.25, -1.0, 2.0};
  std::vector<double> z(6);
  SECTION("phase map") {
    constexpr double kGolden[] = {-0.13100949252211208, 0.52435782663907415, 0.34229398533714733,
                                  -0.54181405392251369, 0.26414443376516761, 0.51520516270866856};
    absl::StatusOr<FeatureMap> map = FeatureMap::Create(SmallConfig(FeatureMapKind::kPhase));
    REQUIRE(map.ok());
    map->Map(x, z);
    for (int i = 0; i < 6; ++i) CHECK(z[i] == Approx(kGolden[i]).epsilon(1e-14));
  }
  SECTION("pair map") {
    constexpr double kGolden[] = {0.44270181901140088, -0.55079206973240191, 0.53488423623402315,
                                  0.37060549480185823, 0.1730937007901506,   0.21732967390965949};
    absl::StatusOr<FeatureMap> map = FeatureMap::Create(SmallConfig(FeatureMapKind::kPair));
    REQUIRE(map.ok());
    map->Map(x, z);
    for (int i = 0; i < 6; ++i) CHECK(z[i] == Approx(kGolden[i]).epsilon(1e-14));
  }
}

TEST_CASE("Features follow the documented formula", "[feature_map]") {
  for (FeatureMapKind kind : {FeatureMapKind::kPhase, FeatureMapKind::kPair}) {
    FeatureMapConfig config = SmallConfig(kind);
    config.num_features = 64;
    absl::StatusOr<FeatureMap> map = FeatureMap::Create(config);
    REQUIRE(map.ok());
    const double x[3] = {0.3, 0.1, -0.7};
    std::vector<double> z(64);
    map->Map(x, z);
    const int m = map->num_frequencies();
    for (int i = 0; i < m; ++i) {
      const double argument =
          std::inner_product(x, x + 3, map->projection().begin() + 3 * i, map->offsets()[i]);
      CHECK(z[i] == Approx(map->scale() * std::cos(argument)).margin(kFeatureTolerance));
      if (kind == FeatureMapKind::kPair) {
        CHECK(z[m + i] == Approx(map->scale() * std::sin(argument)).margin(kFeatureTolerance));
      }
    }
  }
}

// Mean of z(x)·z(y) over many seeds against exp(-γ‖x - y‖²): the estimator is
// unbiased, so its mean over independent seeds must be within a few standard
// errors of the kernel.
void CheckKernelApproximation(FeatureMapKind kind) {
  constexpr int kSeeds = 400;
  constexpr double kGamma = 0.7;
  const std::vector<double> x = {0.2, -0.4, 0.9, 0.0};
  for (double distance : {0.0, 0.3, 0.8, 1.5, 3.0}) {
    std::vector<double> y = x;
    y[0] += distance * 0.6;
    y[2] -= distance * 0.8;  // ‖x - y‖ = distance
    const double expected = std::exp(-kGamma * distance * distance);
    FeatureMapConfig config;
    config.input_dimension = 4;
    config.num_features = 128;
    config.gamma = kGamma;
    config.map = kind;
    const auto [mean, standard_error] = testing::EstimateKernel(config, x, y, kSeeds);
    INFO("distance " << distance << ": mean " << mean << ", kernel " << expected
                     << ", standard error " << standard_error);
    // 4.5 standard errors: fails by chance with probability < 1e-5 per check,
    // and the seeds are fixed, so the outcome is deterministic anyway.
    CHECK(std::abs(mean - expected) <= 4.5 * standard_error + 1e-12);
  }
}

TEST_CASE("Phase map approximates the Gaussian kernel", "[feature_map][statistical]") {
  CheckKernelApproximation(FeatureMapKind::kPhase);
}

TEST_CASE("Pair map approximates the Gaussian kernel", "[feature_map][statistical]") {
  CheckKernelApproximation(FeatureMapKind::kPair);
}

template <class Real>
void CheckRangesEqualMap(FeatureMapKind kind) {
  FeatureMapConfig config = SmallConfig(kind);
  config.num_features = 300;
  absl::StatusOr<BasicFeatureMap<Real>> map = BasicFeatureMap<Real>::Create(config);
  REQUIRE(map.ok());
  const double x[3] = {1.5, -0.2, 0.4};
  std::vector<Real> full(300), piece(300);
  map->Map(x, full);
  // Pieces across the cosine/sine boundary of the pair map (150), some
  // longer than a vector, some not a multiple of one.
  for (int length : {1, 7, 70, 128, 300}) {
    std::fill(piece.begin(), piece.end(), Real{0});
    for (int first = 0; first < 300; first += length) {
      const int count = std::min(length, 300 - first);
      map->MapRange(x, first, std::span<Real>(piece.data() + first, count));
    }
    for (int i = 0; i < 300; ++i) CHECK(piece[i] == full[i]);
  }
}

TEST_CASE("MapRange gives Map's features, bit for bit", "[feature_map]") {
  for (FeatureMapKind kind : {FeatureMapKind::kPhase, FeatureMapKind::kPair}) {
    CheckRangesEqualMap<double>(kind);
    CheckRangesEqualMap<float>(kind);
  }
}

// `d` inputs; wide ones (past the block kernel's chunk of staged inputs)
// with some centred (means far from zero) and some missing.
template <class Real>
void CheckBlockRowsEqualMap(FeatureMapKind kind, int d) {
  FeatureMapConfig config = SmallConfig(kind);
  config.input_dimension = d;
  config.num_features = 70;  // not a multiple of any vector width
  const bool wide = d > 3;
  if (wide) {
    for (int j = 0; j < d; ++j) config.input_offset.push_back(j % 5 == 0 ? 50.0 : 0.1);
    config.input_scale.assign(d, 1.0);
  }
  absl::StatusOr<BasicFeatureMap<Real>> map = BasicFeatureMap<Real>::Create(config);
  REQUIRE(map.ok());
  constexpr int kRows = 23;  // groups of eight (AVX-512) or four, and a remainder
  std::vector<double> inputs(kRows * d);
  for (size_t i = 0; i < inputs.size(); ++i) {
    inputs[i] = std::sin(0.7 * i) + (wide ? config.input_offset[i % d] : 0.0);
    if (wide && i % 97 == 0) inputs[i] = std::numeric_limits<double>::quiet_NaN();
  }
  std::vector<Real> block(kRows * 70), row(70);
  map->MapBlock(inputs, block);
  for (int r = 0; r < kRows; ++r) {
    map->Map(std::span<const double>(inputs).subspan(r * d, d), row);
    for (int i = 0; i < 70; ++i) CHECK(block[r * 70 + i] == row[i]);
  }
}

TEST_CASE("MapBlock rows equal Map of each row, with every kernel", "[feature_map]") {
  for (const internal::SimdKernelTable* kernels : internal::SupportedSimdKernelTables()) {
    const testing::ForcedSimdKernel forced(kernels->name);
    INFO("kernel " << kernels->name);
    for (FeatureMapKind kind : {FeatureMapKind::kPhase, FeatureMapKind::kPair}) {
      for (int d : {3, 1100}) {
        CheckBlockRowsEqualMap<float>(kind, d);
        CheckBlockRowsEqualMap<double>(kind, d);
      }
    }
  }
}

TEST_CASE("The input transform equals standardizing the input first", "[feature_map]") {
  FeatureMapConfig plain = SmallConfig(FeatureMapKind::kPhase);
  plain.num_features = 32;
  FeatureMapConfig transformed = plain;
  transformed.input_offset = {10.0, -3.0, 0.5};
  transformed.input_scale = {2.0, 0.5, 4.0};
  absl::StatusOr<FeatureMap> plain_map = FeatureMap::Create(plain);
  absl::StatusOr<FeatureMap> transformed_map = FeatureMap::Create(transformed);
  REQUIRE(plain_map.ok());
  REQUIRE(transformed_map.ok());
  const double x[3] = {11.0, -2.0, 2.5};
  const double standardized[3] = {(11.0 - 10.0) / 2.0, (-2.0 + 3.0) / 0.5, (2.5 - 0.5) / 4.0};
  std::vector<double> expected(32), actual(32);
  plain_map->Map(standardized, expected);
  transformed_map->Map(x, actual);
  for (int i = 0; i < 32; ++i) CHECK(actual[i] == Approx(expected[i]).margin(1e-13));
}

// A NaN input is missing: it maps as its mean (the input offset, else 0).
// Rows of 5 inputs, a NaN in some and zeros (skipped by Map) in others;
// their mapped features against the same rows with the mean written in.
template <class Real>
void CheckMissingInputsMapAsTheMean(bool standardized) {
  FeatureMapConfig config;
  config.input_dimension = 5;
  config.num_features = 40;  // not a whole number of SIMD batches
  config.gamma = 0.3;
  if (standardized) {
    config.input_offset = {1.5, -2.0, 0.25, 7.0, 0.0};
    config.input_scale = {2.0, 0.5, 1.0, 3.0, 1.5};
  }
  absl::StatusOr<BasicFeatureMap<Real>> map = BasicFeatureMap<Real>::Create(config);
  REQUIRE(map.ok());
  constexpr int kRows = 11;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> with_missing, filled;
  for (int row = 0; row < kRows; ++row) {
    for (int j = 0; j < 5; ++j) {
      double value = 0.37 * row - 0.61 * j + 0.2;
      if ((row + j) % 4 == 0) value = 0.0;
      const bool missing = (row * 5 + j) % 3 == 0;
      with_missing.push_back(missing ? nan : value);
      const double mean = standardized ? config.input_offset[j] : 0.0;
      filled.push_back(missing ? mean : value);
    }
  }
  const int d = config.num_features;
  std::vector<Real> expected(static_cast<std::size_t>(kRows) * d), block(expected.size());
  std::vector<Real> single(static_cast<std::size_t>(d));
  map->MapBlock(filled, expected);
  map->MapBlock(with_missing, block);
  CHECK(block == expected);
  for (int row = 0; row < kRows; ++row) {
    map->Map(std::span<const double>(with_missing).subspan(static_cast<std::size_t>(row) * 5, 5),
             single);
    CHECK(std::equal(single.begin(), single.end(), expected.begin() + row * d));
  }
}

TEST_CASE("A missing (NaN) input maps as its mean, bit for bit, with every kernel",
          "[feature_map][missing]") {
  for (const internal::SimdKernelTable* kernels : internal::SupportedSimdKernelTables()) {
    const testing::ForcedSimdKernel forced(kernels->name);
    INFO("kernel " << kernels->name);
    for (bool standardized : {false, true}) {
      CheckMissingInputsMapAsTheMean<float>(standardized);
      CheckMissingInputsMapAsTheMean<double>(standardized);
    }
  }
}

TEST_CASE("Float and double maps of one config agree to float precision", "[feature_map]") {
  FeatureMapConfig config = SmallConfig(FeatureMapKind::kPair);
  config.num_features = 128;
  absl::StatusOr<FeatureMap> map64 = FeatureMap::Create(config);
  absl::StatusOr<FeatureMapF32> map32 = FeatureMapF32::Create(config);
  REQUIRE(map64.ok());
  REQUIRE(map32.ok());
  const double x[3] = {0.7, -1.1, 0.05};
  std::vector<double> z64(128);
  std::vector<float> z32(128);
  map64->Map(x, z64);
  map32->Map(x, z32);
  // Arguments of size ~3 carry float rounding of ~3 * 2^-24 rad, times the scale.
  for (int i = 0; i < 128; ++i) CHECK(z32[i] == Approx(z64[i]).margin(1e-6));
}

TEST_CASE("Config validation names the problem", "[feature_map][errors]") {
  FeatureMapConfig config = SmallConfig(FeatureMapKind::kPhase);
  SECTION("input dimension") {
    config.input_dimension = 0;
    CHECK(config.Validate().message() == "feature map: input_dimension must be positive, got 0");
  }
  SECTION("feature count") {
    config.num_features = -4;
    CHECK(config.Validate().message() == "feature map: num_features must be positive, got -4");
  }
  SECTION("odd feature count for the pair map") {
    config.map = FeatureMapKind::kPair;
    config.num_features = 7;
    CHECK(config.Validate().message() ==
          "feature map: the pair map needs an even num_features (cos and sin per frequency), got 7");
  }
  SECTION("gamma") {
    config.gamma = -1;
    CHECK(config.Validate().message() ==
          "feature map: gamma must be a positive finite number, got -1");
  }
  SECTION("input scale length") {
    config.input_scale = {1.0};
    CHECK(config.Validate().message() ==
          "feature map: input_scale has 1 entries, expected input_dimension = 3");
  }
  SECTION("input scale zero") {
    config.input_scale = {1.0, 0.0, 1.0};
    CHECK(config.Validate().message() ==
          "feature map: input_scale[1] = 0 is not a positive finite number");
  }
  SECTION("Create reports it too") {
    config.gamma = 0;
    CHECK(FeatureMap::Create(config).status().code() == absl::StatusCode::kInvalidArgument);
  }
}

TEST_CASE("Map kinds parse by name", "[feature_map][errors]") {
  CHECK(*ParseFeatureMapKind("pair") == FeatureMapKind::kPair);
  CHECK(*ParseFeatureMapKind("phase") == FeatureMapKind::kPhase);
  CHECK(ParseFeatureMapKind("cosine").status().message() ==
        "unknown feature map 'cosine' (expected pair or phase)");
  CHECK(GammaFromLengthscale(2.0) == 0.125);
}

}  // namespace
}  // namespace rffstream
