#include "rffstream/warm_up_tuning.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "rffstream/learner.h"

namespace rffstream {
namespace {

// A smooth target of 3 inputs on very different scales (a bandwidth that
// fits one coordinate fits none of the others without standardization).
struct Window {
  std::vector<double> inputs;
  std::vector<double> targets;
};

Window MakeWindow(int rows, int offset) {
  Window window;
  for (int t = offset; t < offset + rows; ++t) {
    const double a = std::sin(0.37 * t), b = 50 * std::cos(0.11 * t), c = 0.01 * std::sin(0.05 * t);
    window.inputs.insert(window.inputs.end(), {a, b, c});
    window.targets.push_back(std::sin(3 * a) + 0.02 * b + 20 * c + 0.05 * std::sin(12.9898 * t));
  }
  return window;
}

LearnerConfig BaseConfig() {
  LearnerConfig config;
  config.features.input_dimension = 3;
  config.features.num_features = 128;
  config.features.input_offset = {0, 0, 0};
  config.features.input_scale = {0.7, 35, 0.007};
  return config;
}

// The mean squared error on new rows of a learner that learned `train`.
double HeldOutError(const LearnerConfig& config, const Window& train, const Window& test) {
  absl::StatusOr<Learner> learner = Learner::Create(config);
  REQUIRE(learner.ok());
  for (std::size_t i = 0; i < train.targets.size(); ++i) {
    learner->Learn(std::span<const double>(train.inputs).subspan(3 * i, 3), train.targets[i]);
  }
  double sum = 0;
  for (std::size_t i = 0; i < test.targets.size(); ++i) {
    const double error =
        learner->Predict(std::span<const double>(test.inputs).subspan(3 * i, 3)) - test.targets[i];
    sum += error * error;
  }
  return sum / static_cast<double>(test.targets.size());
}

TEST_CASE("Tuning picks a grid point with (nearly) the least leave-one-out error", "[tuning]") {
  const Window window = MakeWindow(300, 0);
  absl::StatusOr<TuningResult> tuned = TuneOnWarmUp(BaseConfig(), {}, window.inputs, window.targets);
  REQUIRE(tuned.ok());
  CHECK(tuned->rows == 300);
  CHECK(tuned->gammas.size() == TuningGammaFactors().size());
  CHECK(tuned->ridges == TuningRidges());
  REQUIRE(tuned->errors.size() == tuned->gammas.size() * tuned->ridges.size());
  // The least, or a near-tie of it (within 2 %) that does better on the
  // window's first quarter and half.
  const double least = *std::min_element(tuned->errors.begin(), tuned->errors.end());
  CHECK(tuned->error >= least);
  CHECK(tuned->error <= 1.02 * least);
  // And the choice generalizes: on new rows it beats the untuned defaults
  // and the far corners of the bandwidth grid.
  LearnerConfig chosen = BaseConfig();
  chosen.features.gamma = tuned->gamma;
  chosen.ridge = tuned->ridge;
  const Window test = MakeWindow(300, 5000);
  const double tuned_error = HeldOutError(chosen, window, test);
  INFO("gamma " << tuned->gamma << ", ridge " << tuned->ridge << ", held-out mse " << tuned_error);
  CHECK(tuned_error < HeldOutError(BaseConfig(), window, test));
  for (double gamma : {tuned->gammas.front(), tuned->gammas.back()}) {
    if (gamma == tuned->gamma) continue;
    LearnerConfig corner = chosen;
    corner.features.gamma = gamma;
    CHECK(tuned_error < HeldOutError(corner, window, test));
  }
}

TEST_CASE("A data set's tie-break takes the largest ridge within one standard error", "[tuning]") {
  const Window window = MakeWindow(300, 0);
  absl::StatusOr<TuningResult> tuned = TuneOnWarmUp(
      BaseConfig(), {.tie_break = TieBreak::kMostRegularized}, window.inputs, window.targets);
  REQUIRE(tuned.ok());
  REQUIRE(tuned->spreads.size() == tuned->errors.size());
  const std::size_t least = static_cast<std::size_t>(
      std::min_element(tuned->errors.begin(), tuned->errors.end()) - tuned->errors.begin());
  const std::size_t ridges = tuned->ridges.size();
  const double limit = tuned->errors[least] + tuned->spreads[least];
  CHECK(tuned->spreads[least] > 0);
  // The least error's bandwidth; the largest ridge there within the limit.
  CHECK(tuned->gamma == tuned->gammas[least / ridges]);
  std::size_t expected = least % ridges;
  for (std::size_t r = 0; r < ridges; ++r) {
    if (tuned->errors[least - least % ridges + r] <= limit) expected = std::max(expected, r);
  }
  CHECK(tuned->ridge == tuned->ridges[expected]);
  CHECK(tuned->error <= limit);
}

TEST_CASE("A long window is ranked with few features, then refined with more", "[tuning]") {
  const Window window = MakeWindow(600, 0);
  LearnerConfig config = BaseConfig();
  config.features.num_features = 1024;
  absl::StatusOr<TuningResult> tuned = TuneOnWarmUp(config, {}, window.inputs, window.targets);
  REQUIRE(tuned.ok());
  CHECK(tuned->features == 256);
  CHECK(tuned->refined_features == 512);
  // The grid's best bandwidth and the two above it (fewer at the grid's
  // end), all ridges.
  const std::size_t ridges = tuned->ridges.size();
  REQUIRE(!tuned->refined_gammas.empty());
  const auto first = std::find(tuned->gammas.begin(), tuned->gammas.end(), tuned->refined_gammas[0]);
  REQUIRE(first != tuned->gammas.end());
  const std::size_t g = static_cast<std::size_t>(first - tuned->gammas.begin());
  const std::size_t refined = std::min<std::size_t>(3, tuned->gammas.size() - g);
  CHECK(std::vector<double>(first, first + static_cast<std::ptrdiff_t>(refined)) ==
        tuned->refined_gammas);
  CHECK(tuned->refined_errors.size() == refined * ridges);
  CHECK(*std::min_element(tuned->errors.begin() + g * ridges, tuned->errors.begin() + (g + 1) * ridges) ==
        *std::min_element(tuned->errors.begin(), tuned->errors.end()));
  // The choice is made in the refined table.
  const double least =
      *std::min_element(tuned->refined_errors.begin(), tuned->refined_errors.end());
  CHECK(tuned->error >= least);
  CHECK(tuned->error <= 1.02 * least);
  CHECK(std::find(tuned->refined_gammas.begin(), tuned->refined_gammas.end(), tuned->gamma) !=
        tuned->refined_gammas.end());

  // A window of 512 rows or fewer is tuned with the model's features at once.
  absl::StatusOr<TuningResult> short_window =
      TuneOnWarmUp(config, {}, std::span<const double>(window.inputs).first(3 * 300),
                   std::span<const double>(window.targets).first(300));
  REQUIRE(short_window.ok());
  CHECK(short_window->features == 1024);
  CHECK(short_window->refined_features == 0);
  CHECK(short_window->refined_errors.empty());
}

TEST_CASE("Tuning keeps what it is told to keep", "[tuning]") {
  const Window window = MakeWindow(100, 0);
  LearnerConfig config = BaseConfig();
  config.features.gamma = 0.3;
  absl::StatusOr<TuningResult> ridge_only =
      TuneOnWarmUp(config, {.tune_gamma = false}, window.inputs, window.targets);
  REQUIRE(ridge_only.ok());
  CHECK(ridge_only->gamma == 0.3);
  CHECK(ridge_only->gammas == std::vector<double>{0.3});
  absl::StatusOr<TuningResult> gamma_only =
      TuneOnWarmUp(config, {.tune_ridge = false}, window.inputs, window.targets);
  REQUIRE(gamma_only.ok());
  CHECK(gamma_only->ridge == config.ridge);
}

TEST_CASE("A constant target gives finite settings from the grid", "[tuning]") {
  Window window = MakeWindow(200, 0);
  std::fill(window.targets.begin(), window.targets.end(), 5.0);
  absl::StatusOr<TuningResult> tuned = TuneOnWarmUp(BaseConfig(), {}, window.inputs, window.targets);
  REQUIRE(tuned.ok());
  CHECK(std::isfinite(tuned->error));
  CHECK(std::find(tuned->gammas.begin(), tuned->gammas.end(), tuned->gamma) != tuned->gammas.end());
  CHECK(std::find(tuned->ridges.begin(), tuned->ridges.end(), tuned->ridge) != tuned->ridges.end());
  CHECK(tuned->error < 1e-2);  // a constant is easy to predict (the intercept)
}

TEST_CASE("Tuning on a window it cannot use says why", "[tuning][errors]") {
  const std::vector<double> one_row = {1, 2, 3}, one_target = {1};
  CHECK(TuneOnWarmUp(BaseConfig(), {}, one_row, one_target).status().message() ==
        "tuning: needs at least 2 labelled rows, got 1");
  const std::vector<double> constant = {1, 2, 3, 1, 2, 3}, targets = {1, 2};
  CHECK(TuneOnWarmUp(BaseConfig(), {}, constant, targets).status().message() ==
        "median heuristic: the median squared distance of the warm-up inputs is zero");
}

}  // namespace
}  // namespace rffstream
