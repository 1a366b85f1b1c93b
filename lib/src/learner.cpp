#include "rffstream/learner.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <new>
#include <stdexcept>
#include <utility>

#include "absl/strings/str_cat.h"
#include "internal/chunked_prediction.h"

namespace rffstream {
namespace {

// Predict() maps a row of up to this many bytes on the stack.
constexpr std::size_t kStackRowBytes = 16 << 10;

}  // namespace

template <class Real>
absl::StatusOr<BasicLearner<Real>> BasicLearner<Real>::Create(LearnerConfig config) {
  if (absl::Status status = config.Validate(); !status.ok()) return status;
  try {
    absl::StatusOr<BasicFeatureMap<Real>> feature_map =
        BasicFeatureMap<Real>::Create(config.features);
    if (!feature_map.ok()) return feature_map.status();
    return BasicLearner(std::move(config), *std::move(feature_map));
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "learner: out of memory for ", config.features.num_features, " features (about ",
        config.MemoryBytes(sizeof(Real)) / (1 << 20), " MiB)"));
  } catch (const std::length_error&) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "learner: ", config.features.num_features, " features is more than memory can address"));
  }
}

template <class Real>
BasicLearner<Real>::BasicLearner(LearnerConfig config, BasicFeatureMap<Real> feature_map)
    : config_(std::move(config)),
      feature_map_(std::move(feature_map)),
      rls_(feature_map_.num_features() + (config_.intercept ? 1 : 0), config_.ridge,
           config_.forgetting, config_.num_outputs),
      features_(rls_.dimension(), Real{1}) {}

template <class Real>
void BasicLearner<Real>::PredictOutputs(std::span<const Real> x,
                                        std::span<Real> predictions) const noexcept {
  // No scratch member, so const and thread-safe: a row that fits in
  // kStackRowBytes is mapped whole on the stack, a longer one a chunk at a
  // time (internal/chunked_prediction.h); both sum the same chunks.
  const int row_length = rls_.dimension();
  if (static_cast<std::size_t>(row_length) * sizeof(Real) <= kStackRowBytes) {
    std::array<Real, kStackRowBytes / sizeof(Real)> row;
    MapRow(x, std::span<Real>(row.data(), static_cast<std::size_t>(row_length)));
    PredictRowOutputs(std::span<const Real>(row.data(), static_cast<std::size_t>(row_length)),
                      predictions);
    return;
  }
  const int num_features = feature_map_.num_features();
  std::array<Real, internal::kPredictionChunk> chunk;
  std::fill(predictions.begin(), predictions.end(), Real{0});
  for (int first = 0; first < row_length; first += internal::kPredictionChunk) {
    const int count = std::min(internal::kPredictionChunk, row_length - first);
    const int mapped = std::min(count, num_features - first);
    if (mapped > 0) feature_map_.MapRange(x, first, std::span<Real>(chunk.data(), mapped));
    if (mapped < count) chunk[mapped] = Real{1};  // the intercept's
    for (std::size_t output = 0; output < predictions.size(); ++output) {
      predictions[output] += internal::PredictionChunkTerm(
          rls_.weights(static_cast<int>(output)).data() + first, chunk.data(), count);
    }
  }
}

template <class Real>
Real BasicLearner<Real>::Predict(std::span<const Real> x) const noexcept {
  Real prediction = 0;
  PredictOutputs(x, std::span<Real>(&prediction, 1));  // output 0 only
  return prediction;
}

template <class Real>
Real BasicLearner<Real>::Learn(std::span<const Real> x, Real target) noexcept {
  Real prior = 0;
  LearnOutputs(x, std::span<const Real>(&target, 1), std::span<Real>(&prior, 1));
  return prior;
}

template <class Real>
void BasicLearner<Real>::MapRow(std::span<const Real> x, std::span<Real> row) const noexcept {
  const int num_features = feature_map_.num_features();
  feature_map_.Map(x, row.first(num_features));
  if (config_.intercept) row[num_features] = Real{1};
}

template <class Real>
void BasicLearner<Real>::PredictRowOutputs(std::span<const Real> row,
                                           std::span<Real> predictions) const noexcept {
  for (std::size_t output = 0; output < predictions.size(); ++output) {
    predictions[output] = rls_.Predict(row, static_cast<int>(output));
  }
}

template <class Real>
bool BasicLearner<Real>::LearnOutputs(std::span<const Real> x, std::span<const Real> targets,
                                      std::span<Real> priors) noexcept {
  MapRow(x, features_);
  return LearnRowOutputs(features_, targets, priors);
}

template <class Real>
bool BasicLearner<Real>::LearnRowOutputs(std::span<const Real> row, std::span<const Real> targets,
                                         std::span<Real> priors) noexcept {
  const bool learned = rls_.LearnOutputs(row, targets, priors);
  samples_learned_ += learned ? 1 : 0;
  return learned;
}

template <class Real>
int BasicLearner<Real>::LearnBlock(std::span<const Real> inputs, std::span<const Real> targets,
                                    std::span<Real> priors) {
  const std::size_t k = targets.size() / static_cast<std::size_t>(config_.num_outputs);
  const std::size_t num_features = static_cast<std::size_t>(feature_map_.num_features());
  const std::size_t row_length = static_cast<std::size_t>(rls_.dimension());
  block_features_.resize(k * num_features);
  feature_map_.MapBlock(inputs, block_features_);
  if (!config_.intercept) return LearnRowBlock(block_features_, targets, priors);
  block_rows_.resize(k * row_length);
  for (std::size_t s = 0; s < k; ++s) {
    std::copy_n(block_features_.begin() + s * num_features, num_features,
                block_rows_.begin() + s * row_length);
    block_rows_[s * row_length + num_features] = Real{1};
  }
  return LearnRowBlock(block_rows_, targets, priors);
}

template <class Real>
int BasicLearner<Real>::LearnRowBlock(std::span<const Real> rows, std::span<const Real> targets,
                                      std::span<Real> priors) {
  const int learned = rls_.LearnBlock(rows, targets, priors);
  samples_learned_ += learned;
  return learned;
}

template <class Real>
typename BasicLearner<Real>::PredictionWithVariance BasicLearner<Real>::PredictWithVariance(
    std::span<const Real> x) noexcept {
  MapRow(x, features_);
  return PredictRowWithVariance(features_);
}

template <class Real>
typename BasicLearner<Real>::PredictionWithVariance BasicLearner<Real>::PredictRowWithVariance(
    std::span<const Real> row) const noexcept {
  const Real noise = rls_.NoiseVarianceEstimate();
  return {rls_.Predict(row), noise * (1 + rls_.CovarianceQuadraticForm(row))};
}

template class BasicLearner<float>;
template class BasicLearner<double>;

}  // namespace rffstream
