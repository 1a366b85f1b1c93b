#include "rffstream/stream/bandwidth_follower.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "Eigen/Dense"
#include "rffstream/feature_map.h"
#include "rffstream/ridge_by_gcv.h"
#include "rffstream/stream/ridge_follower.h"
#include "stream/kept_line_sums.h"
#include "stream/standardization_on_lines.h"

namespace rffstream {

using internal::LineSums;
using internal::SumsOverLines;

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
  // One process chooses on time and never keeps more than the last
  // choice's lines; data-parallel ranks choose at the merges, which may come
  // late (or only at the end): each keeps at most a few times as many.
  most_rows_ = std::min(kMostInputValues / num_inputs_, kLateChoiceLines * last_choice);
  if (fits_) return;
  state_.choices_left = 0;
  state_.inputs = {};
  state_.targets = {};
}

template <class Real>
void BandwidthFollower<Real>::Learned(std::span<const double> inputs,
                                      std::span<const Real> targets) {
  if (state_.choices_left == 0 || overflowed_) return;
  if (rows() >= most_rows_) {  // the choices will not come in time
    overflowed_ = true;
    state_.inputs = {};
    state_.targets = {};
    return;
  }
  for (std::size_t j = 0; j < inputs.size(); ++j) {
    const double value = inputs[j];
    state_.inputs.push_back(!std::isnan(value) ? value : means_.empty() ? 0.0 : means_[j]);
  }
  state_.targets.insert(state_.targets.end(), targets.begin(), targets.end());
}

template <class Real>
std::optional<BasicLearner<Real>> BandwidthFollower<Real>::Restarted(
    std::int64_t line, const BasicLearner<Real>& learner, std::span<const double> inputs,
    std::span<const Real> targets) {
  // A model that does not follow (too wide a stream, a file of format 9 or
  // older) keeps not following.
  if (!fits_ || state_.window_gamma <= 0) return std::nullopt;
  state_.inputs.clear();
  state_.targets.clear();
  state_.choices_left = kChoices;
  overflowed_ = false;
  const auto d = static_cast<std::size_t>(num_inputs_);
  const std::size_t lines = inputs.size() / d;
  const std::size_t outputs = lines == 0 ? 0 : targets.size() / lines;
  for (std::size_t kept = 0; kept < lines; ++kept) {
    Learned(inputs.subspan(kept * d, d), targets.subspan(kept * outputs, outputs));
  }
  const double gamma = learner.config().features.gamma;
  if (gamma == state_.window_gamma) return std::nullopt;
  FeatureMapConfig features = learner.config().features;
  features.gamma = state_.window_gamma;
  std::optional<BasicLearner<Real>> rebuilt =
      Rebuild(learner, features, learner.config().ridge, /*ranks=*/nullptr);
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
    const BasicLearner<Real>& learner, FeatureMapConfig features, const Ranks* ranks) const {
  const LearnerConfig& config = learner.config();
  const Scored unscored{std::numeric_limits<double>::infinity(), config.ridge};
  absl::StatusOr<BasicFeatureMap<Real>> map = BasicFeatureMap<Real>::Create(std::move(features));
  if (!map.ok()) return unscored;  // the same on every rank: the same settings
  LineSums sums = SumsOverLines(*map, config.intercept, state_, learner.thread_pool().get());
  if (ranks != nullptr) internal::SumOverRanks(ranks->sum, sums);
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
std::optional<BasicLearner<Real>> BandwidthFollower<Real>::Rebuild(
    const BasicLearner<Real>& learner, const FeatureMapConfig& features, double ridge,
    const Ranks* ranks) const {
  LearnerConfig config = learner.config();
  config.features = features;
  config.ridge = ridge;
  absl::StatusOr<BasicLearner<Real>> rebuilt = BasicLearner<Real>::Create(std::move(config));
  if (!rebuilt.ok()) return std::nullopt;
  LineSums sums = SumsOverLines(rebuilt->feature_map(), rebuilt->config().intercept, state_,
                                learner.thread_pool().get());
  if (ranks != nullptr) internal::SumOverRanks(ranks->sum, sums);
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
typename BandwidthFollower<Real>::Walked BandwidthFollower<Real>::Walk(
    const BasicLearner<Real>& learner, const FeatureMapConfig& features,
    const Ranks* ranks) const {
  Walked walked{features.gamma, Score(learner, features, ranks), {}};
  walked.start = walked.best;
  // GCV's score over the width has one least in practice: step from the
  // start in the direction that improves, while it does.
  for (const double step : {kWiderStep, kNarrowerStep}) {
    for (double factor = step; factor >= kMostWidening && factor <= kMostNarrowing;
         factor *= step) {
      FeatureMapConfig candidate = features;
      candidate.gamma = features.gamma * factor;
      const Scored scored = Score(learner, candidate, ranks);
      if (!(scored.score < walked.best.score)) break;
      walked.gamma = candidate.gamma;
      walked.best = scored;
    }
    if (walked.gamma != features.gamma) break;  // wider helped: narrower is not tried
  }
  return walked;
}

template <class Real>
std::optional<BasicLearner<Real>> BandwidthFollower<Real>::MaybeRechoose(
    std::int64_t line, const BasicLearner<Real>& learner, const Ranks* ranks,
    bool restandardize) {
  if (state_.choices_left == 0) return std::nullopt;
  --state_.choices_left;
  const LearnerConfig& config = learner.config();
  std::vector<double> lines = {static_cast<double>(rows()), overflowed_ ? 1.0 : 0.0};
  if (ranks != nullptr) ranks->sum(lines);
  if (lines[1] > 0) {  // some rank stopped keeping lines: none chooses again
    state_.choices_left = 0;
    return NoneLeftAfter(std::nullopt);
  }
  if (lines[0] < 2.0 * config.features.num_features) return NoneLeftAfter(std::nullopt);
  const Walked kept = Walk(learner, config.features, ranks);
  FeatureMapConfig best = config.features;
  best.gamma = kept.gamma;
  Scored best_scored = kept.best;
  std::optional<FeatureMapConfig> standardized;
  if (restandardize) {
    standardized = internal::StandardizedOnLines(config.features, state_.inputs, num_inputs_,
                                                 ranks != nullptr ? &ranks->sum : nullptr);
  }
  if (standardized.has_value()) {
    const Walked other = Walk(learner, *standardized, ranks);
    if (other.best.score < best_scored.score) {
      best = *standardized;
      best.gamma = other.gamma;
      best_scored = other.best;
    } else {
      standardized.reset();
    }
  }
  std::optional<BasicLearner<Real>> rebuilt;
  // As for the ridge: GCV's curve is flat near its least, and a negligible
  // gain is no reason to rebuild.
  const double gamma = config.features.gamma;
  if ((best.gamma != gamma || standardized.has_value()) && std::isfinite(kept.start.score) &&
      best_scored.score < (1 - kMinimumGain) * kept.start.score) {
    rebuilt = Rebuild(learner, best, best_scored.ridge, ranks);
    // Every rank rebuilds, or none does.
    std::vector<double> failed = {rebuilt.has_value() ? 0.0 : 1.0};
    if (ranks != nullptr) ranks->sum(failed);
    if (failed[0] > 0) rebuilt.reset();
  }
  if (rebuilt.has_value()) {
    const auto samples = static_cast<std::int64_t>(lines[0]);
    if (best.gamma != gamma) state_.changes.push_back({line, samples, gamma, best.gamma});
    if (standardized.has_value()) {
      state_.standardizations.push_back(
          {line, samples, 1.0, internal::LargestScaleChange(config.features, best)});
      means_ = best.input_offset;
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
