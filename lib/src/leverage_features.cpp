#include "rffstream/leverage_features.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "Eigen/Dense"
#include "absl/strings/str_cat.h"
#include "internal/random.h"
#include "rffstream/feature_map.h"

namespace rffstream {
namespace {

constexpr int kMaxRows = 512;
// The share of the uniform distribution in the selection probabilities.
constexpr double kUniformShare = 0.1;
// Selection draws come from their own stream of the seed, apart from the
// candidates' draws.
constexpr std::uint64_t kSelectionStream = 0x9e3779b97f4a7c15ULL;

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Each candidate frequency's ridge leverage score on the first `rows`
// inputs (its two features' together for the pair map).
absl::StatusOr<std::vector<double>> LeverageScores(const FeatureMapConfig& candidates,
                                                   std::span<const double> inputs, int rows,
                                                   double ridge, int count, bool pair) {
  const int dimension = candidates.input_dimension;
  absl::StatusOr<FeatureMap> map = FeatureMap::Create(candidates);
  if (!map.ok()) return map.status();
  RowMatrix phi(rows, candidates.num_features);
  for (int i = 0; i < rows; ++i) {
    map->Map(inputs.subspan(static_cast<std::size_t>(i) * dimension, dimension),
             std::span<double>(phi.row(i).data(), static_cast<std::size_t>(phi.cols())));
  }
  // τ_f = φ_fᵀ (ΦΦᵀ + λI)⁻¹ φ_f for every feature column f.
  Eigen::MatrixXd gram = phi * phi.transpose();
  gram.diagonal().array() += ridge;
  const Eigen::LLT<Eigen::MatrixXd> cholesky(gram);
  if (cholesky.info() != Eigen::Success) {
    return absl::InternalError("leverage features: the kernel matrix is not positive definite");
  }
  const Eigen::MatrixXd solved = cholesky.solve(phi);
  const Eigen::RowVectorXd feature_scores = (phi.array() * solved.array()).colwise().sum();
  std::vector<double> scores(static_cast<std::size_t>(count));
  for (int j = 0; j < count; ++j) {
    scores[j] = feature_scores[j] + (pair ? feature_scores[count + j] : 0.0);
  }
  return scores;
}

}  // namespace

absl::StatusOr<FeatureMapConfig> SelectFeaturesByLeverage(FeatureMapConfig config, double ridge,
                                                          std::span<const double> inputs,
                                                          int candidates_per_frequency) {
  if (!(ridge > 0) || !std::isfinite(ridge) || candidates_per_frequency < 1) {
    return absl::InvalidArgumentError(absl::StrCat("leverage features: ridge ", ridge,
                                                   " and candidates per frequency ",
                                                   candidates_per_frequency, " must be positive"));
  }
  FeatureMapConfig candidates = config;
  candidates.sampler = FrequencySampler::kIid;
  candidates.selection = {};
  if (absl::Status valid = candidates.Validate(); !valid.ok()) return valid;
  const int dimension = config.input_dimension;
  const int rows = std::min(kMaxRows, static_cast<int>(inputs.size() / dimension));
  if (rows < 2 || inputs.size() % static_cast<std::size_t>(dimension) != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "leverage features: needs at least 2 rows of ", dimension, " inputs, got ", inputs.size(),
        " numbers"));
  }
  if (!std::all_of(inputs.begin(), inputs.end(), [](double x) { return std::isfinite(x); })) {
    return absl::InvalidArgumentError("leverage features: an input is not finite");
  }
  // The candidates, drawn as a kLeverage map will draw them.
  const int frequencies = config.num_frequencies();
  const int count = frequencies * candidates_per_frequency;
  const bool pair = config.map == FeatureMapKind::kPair;
  candidates.num_features = pair ? 2 * count : count;
  absl::StatusOr<std::vector<double>> leverage =
      LeverageScores(candidates, inputs, rows, ridge, count, pair);
  if (!leverage.ok()) return leverage.status();
  const std::vector<double>& scores = *leverage;
  const double total = std::accumulate(scores.begin(), scores.end(), 0.0);
  if (!(total > 0) || !std::isfinite(total)) {
    return absl::InternalError(absl::StrCat("leverage features: the leverage scores sum to ", total));
  }
  std::vector<double> cumulative(scores.size());
  std::vector<double> probability(scores.size());
  double running = 0;
  for (std::size_t j = 0; j < scores.size(); ++j) {
    probability[j] = (1 - kUniformShare) * scores[j] / total + kUniformShare / count;
    running += probability[j];
    cumulative[j] = running;
  }
  internal::RandomEngine engine(config.seed ^ kSelectionStream);
  config.sampler = FrequencySampler::kLeverage;
  config.selection = {count, {}, {}};
  for (int s = 0; s < frequencies; ++s) {
    const double u = engine.NextUniform() * running;
    const auto at = std::upper_bound(cumulative.begin(), cumulative.end(), u);
    const auto j = static_cast<std::size_t>(std::min<std::ptrdiff_t>(at - cumulative.begin(), count - 1));
    config.selection.selected.push_back(static_cast<int>(j));
    config.selection.weights.push_back(1.0 / std::sqrt(count * probability[j]));
  }
  return config;
}

}  // namespace rffstream
