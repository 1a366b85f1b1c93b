#include "rffstream/stream/bandwidth_follower.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "Eigen/Dense"
#include "rffstream/feature_map.h"
#include "rffstream/ridge_by_gcv.h"
#include "rffstream/stream/ridge_follower.h"

namespace rffstream {
namespace {

// The kept lines mapped by `map` (the model's precision, as it maps them),
// with a column of ones for an intercept: one row each.
template <class Real>
Eigen::MatrixXd MappedRows(const BasicFeatureMap<Real>& map, bool intercept,
                           std::span<const double> inputs) {
  const Eigen::Index rows = static_cast<Eigen::Index>(inputs.size()) / map.input_dimension();
  const Eigen::Index features = map.num_features();
  const std::vector<Real> converted(inputs.begin(), inputs.end());
  std::vector<Real> mapped(static_cast<std::size_t>(rows * features));
  map.MapBlock(converted, mapped);
  Eigen::MatrixXd result(rows, features + (intercept ? 1 : 0));
  result.leftCols(features) =
      Eigen::Map<const Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
          mapped.data(), rows, features)
          .template cast<double>();
  if (intercept) result.col(features).setOnes();
  return result;
}

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Ridge regression's sums over the kept lines mapped by `map`: G = Σ z zᵀ
// (full, symmetric), b = Σ z y (a column of D per output) and Σ y².
struct LineSums {
  Eigen::MatrixXd gram;
  Eigen::MatrixXd target_sums;
  Eigen::VectorXd target_squares;
  Eigen::Index lines = 0;
};

// With data-parallel ranks, the sums over every rank's kept lines.
template <class Real>
void SumOverRanks(const typename BandwidthFollower<Real>::Ranks* ranks, LineSums& sums) {
  if (ranks == nullptr) return;
  std::vector<double> all(sums.gram.data(), sums.gram.data() + sums.gram.size());
  all.insert(all.end(), sums.target_sums.data(), sums.target_sums.data() + sums.target_sums.size());
  all.insert(all.end(), sums.target_squares.data(),
             sums.target_squares.data() + sums.target_squares.size());
  all.push_back(static_cast<double>(sums.lines));
  ranks->sum(all);
  const double* next = all.data();
  for (Eigen::MatrixXd* part : {&sums.gram, &sums.target_sums}) {
    std::copy_n(next, part->size(), part->data());
    next += part->size();
  }
  std::copy_n(next, sums.target_squares.size(), sums.target_squares.data());
  sums.lines = static_cast<Eigen::Index>(all.back());
}

// The Gram matrix is summed in kGramParts parts of the lines, on `pool`'s
// threads when it has as many (the same sums with any number of threads).
constexpr int kGramParts = 2;

template <class Real>
LineSums SumsOverLines(const BasicFeatureMap<Real>& map, bool intercept,
                       const BandwidthFollowState& state, ThreadPool* pool) {
  const Eigen::MatrixXd rows = MappedRows(map, intercept, state.inputs);
  const Eigen::Map<const RowMajor> targets(
      state.targets.data(), rows.rows(),
      static_cast<Eigen::Index>(state.targets.size()) / std::max<Eigen::Index>(rows.rows(), 1));
  std::array<Eigen::MatrixXd, kGramParts> grams;
  auto gram_of_part = [&](int part) {
    const Eigen::Index first = rows.rows() * part / kGramParts;
    const Eigen::Index end = rows.rows() * (part + 1) / kGramParts;
    grams[part] = Eigen::MatrixXd::Zero(rows.cols(), rows.cols());
    grams[part].selfadjointView<Eigen::Lower>().rankUpdate(
        rows.middleRows(first, end - first).transpose());
  };
  if (pool != nullptr && pool->size() >= kGramParts) {
    pool->Run(kGramParts, gram_of_part);
  } else {
    for (int part = 0; part < kGramParts; ++part) gram_of_part(part);
  }
  LineSums sums;
  sums.gram = grams[0];
  for (int part = 1; part < kGramParts; ++part) sums.gram += grams[part];
  sums.gram.triangularView<Eigen::StrictlyUpper>() = sums.gram.transpose();
  sums.target_sums = rows.transpose() * targets;
  sums.target_squares = targets.colwise().squaredNorm().transpose();
  sums.lines = rows.rows();
  return sums;
}

}  // namespace

template <class Real>
bool BandwidthFollower<Real>::CanFollow(const LearnerConfig& config) {
  return config.features.lengthscales.empty() && config.features.num_features <= kMostFeatures &&
         config.features.sampler != FrequencySampler::kLeverage && config.loss == Loss::kSquared &&
         config.forgetting == 1.0;
}

template <class Real>
BandwidthFollower<Real>::BandwidthFollower(const LearnerConfig& config, BandwidthFollowState state)
    : num_inputs_(std::max(config.features.input_dimension, 1)),
      means_(config.features.input_offset),
      state_(std::move(state)) {}

template <class Real>
void BandwidthFollower<Real>::WindowEnded(std::int64_t samples, double gamma) {
  state_.window_gamma = gamma;
  std::int64_t last_choice = RidgeFollower<Real>::kFirstMultiple * std::max<std::int64_t>(samples, 1);
  for (int choice = 1; choice < kChoices; ++choice) last_choice *= RidgeFollower<Real>::kGrowth;
  fits_ = last_choice <= kMostInputValues / num_inputs_;
  if (fits_) return;
  state_.choices_left = 0;
  state_.inputs = {};
  state_.targets = {};
}

template <class Real>
void BandwidthFollower<Real>::Learned(std::span<const double> inputs,
                                      std::span<const Real> targets) {
  if (state_.choices_left == 0) return;
  for (std::size_t j = 0; j < inputs.size(); ++j) {
    const double value = static_cast<Real>(inputs[j]);  // as the model maps it
    state_.inputs.push_back(!std::isnan(value) ? value : means_.empty() ? 0.0 : means_[j]);
  }
  state_.targets.insert(state_.targets.end(), targets.begin(), targets.end());
}

template <class Real>
std::optional<BasicLearner<Real>> BandwidthFollower<Real>::Restarted(
    std::int64_t line, const BasicLearner<Real>& learner, std::span<const Real> inputs,
    std::span<const Real> targets) {
  // A model that does not follow (too wide a stream, a file of format 9 or
  // older) keeps not following.
  if (!fits_ || state_.window_gamma <= 0) return std::nullopt;
  state_.inputs.clear();
  state_.targets.clear();
  state_.choices_left = kChoices;
  const auto d = static_cast<std::size_t>(num_inputs_);
  const std::size_t lines = inputs.size() / d;
  const std::size_t outputs = lines == 0 ? 0 : targets.size() / lines;
  std::vector<double> row(d);
  for (std::size_t kept = 0; kept < lines; ++kept) {
    std::copy_n(inputs.begin() + static_cast<std::ptrdiff_t>(kept * d), d, row.begin());
    Learned(row, targets.subspan(kept * outputs, outputs));
  }
  const double gamma = learner.config().features.gamma;
  if (gamma == state_.window_gamma) return std::nullopt;
  std::optional<BasicLearner<Real>> rebuilt =
      Rebuild(learner, state_.window_gamma, learner.config().ridge, /*ranks=*/nullptr);
  if (rebuilt.has_value()) state_.changes.push_back({line, 0, gamma, state_.window_gamma});
  return rebuilt;
}

template <class Real>
std::vector<double> BandwidthFollower<Real>::ScoringRidges() {
  std::vector<double> ridges;
  for (int step = -16; step <= 2; ++step) ridges.push_back(std::pow(10.0, step / 2.0));
  return ridges;
}

template <class Real>
typename BandwidthFollower<Real>::Scored BandwidthFollower<Real>::Score(
    const BasicLearner<Real>& learner, double gamma, const Ranks* ranks) const {
  const LearnerConfig& config = learner.config();
  const Scored unscored{std::numeric_limits<double>::infinity(), config.ridge};
  FeatureMapConfig features = config.features;
  features.gamma = gamma;
  absl::StatusOr<BasicFeatureMap<Real>> map = BasicFeatureMap<Real>::Create(std::move(features));
  if (!map.ok()) return unscored;  // the same on every rank: the same settings
  LineSums sums = SumsOverLines(*map, config.intercept, state_, learner.thread_pool().get());
  SumOverRanks<Real>(ranks, sums);
  absl::StatusOr<RidgeChoice> choice = ChooseRidgeByGcv(
      std::span<const double>(sums.gram.data(), static_cast<std::size_t>(sums.gram.size())),
      std::span<const double>(sums.target_sums.data(),
                              static_cast<std::size_t>(sums.target_sums.size())),
      std::span<const double>(sums.target_squares.data(),
                              static_cast<std::size_t>(sums.target_squares.size())),
      sums.lines, config.ridge, ScoringRidges());
  Scored scored = !choice.ok() ? unscored
                 : choice->score < choice->current_score ? Scored{choice->score, choice->ridge}
                                                         : Scored{choice->current_score, config.ridge};
  if (ranks != nullptr) scored = {ranks->agree(scored.score), ranks->agree(scored.ridge)};
  return scored;
}

template <class Real>
std::optional<BasicLearner<Real>> BandwidthFollower<Real>::Rebuild(const BasicLearner<Real>& learner,
                                                                   double gamma, double ridge,
                                                                   const Ranks* ranks) const {
  LearnerConfig config = learner.config();
  config.features.gamma = gamma;
  config.ridge = ridge;
  absl::StatusOr<BasicLearner<Real>> rebuilt = BasicLearner<Real>::Create(std::move(config));
  if (!rebuilt.ok()) return std::nullopt;
  LineSums sums = SumsOverLines(rebuilt->feature_map(), rebuilt->config().intercept, state_,
                                learner.thread_pool().get());
  SumOverRanks<Real>(ranks, sums);
  sums.gram.diagonal().array() += rebuilt->config().ridge;  // the information form λI + G
  typename BasicRls<Real>::InformationForm form;
  form.information.assign(sums.gram.data(), sums.gram.data() + sums.gram.size());
  form.target_sums.assign(sums.target_sums.data(),
                          sums.target_sums.data() + sums.target_sums.size());
  // The noise estimate comes from the a-priori errors of the stream, which
  // the rebuilt model did not make: it keeps the model's.
  const BasicRls<Real>& engine = learner.rls();
  form.noise_sums.assign(engine.noise_sums().begin(), engine.noise_sums().end());
  form.noise_weight = engine.noise_weight();
  if (learner.thread_pool() != nullptr) rebuilt->SetThreadPool(learner.thread_pool());
  if (!rebuilt->SetInformationForm(form, learner.samples_learned()).ok()) return std::nullopt;
  return std::move(*rebuilt);
}

template <class Real>
std::optional<BasicLearner<Real>> BandwidthFollower<Real>::MaybeRechoose(
    std::int64_t line, const BasicLearner<Real>& learner, const Ranks* ranks) {
  if (state_.choices_left == 0) return std::nullopt;
  --state_.choices_left;
  const LearnerConfig& config = learner.config();
  std::vector<double> lines = {static_cast<double>(rows())};
  if (ranks != nullptr) ranks->sum(lines);
  if (lines[0] < 2.0 * config.features.num_features) return NoneLeftAfter(std::nullopt);
  const double gamma = config.features.gamma;
  const Scored current = Score(learner, gamma, ranks);
  // GCV's score over the width has one least in practice: step from the
  // current width in the direction that improves, while it does.
  double best = gamma;
  Scored best_scored = current;
  for (const double step : {kWiderStep, kNarrowerStep}) {
    for (double factor = step; factor >= kMostWidening && factor <= kMostNarrowing;
         factor *= step) {
      const Scored scored = Score(learner, gamma * factor, ranks);
      if (!(scored.score < best_scored.score)) break;
      best = gamma * factor;
      best_scored = scored;
    }
    if (best != gamma) break;  // wider helped: narrower is not tried
  }
  std::optional<BasicLearner<Real>> rebuilt;
  // As for the ridge: GCV's curve is flat near its least, and a negligible
  // gain is no reason to rebuild.
  if (best != gamma && std::isfinite(current.score) &&
      best_scored.score < (1 - kMinimumGain) * current.score) {
    rebuilt = Rebuild(learner, best, best_scored.ridge, ranks);
    if (rebuilt.has_value()) {
      state_.changes.push_back({line, static_cast<std::int64_t>(lines[0]), gamma, best});
    }
  }
  return NoneLeftAfter(std::move(rebuilt));
}

template <class Real>
std::optional<BasicLearner<Real>> BandwidthFollower<Real>::NoneLeftAfter(
    std::optional<BasicLearner<Real>> rebuilt) {
  if (state_.choices_left == 0) {  // no choice left: the lines are not needed
    state_.inputs = {};
    state_.targets = {};
  }
  return rebuilt;
}

template class BandwidthFollower<float>;
template class BandwidthFollower<double>;

}  // namespace rffstream
