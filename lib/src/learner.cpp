#include "rffstream/learner.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <limits>
#include <new>
#include <stdexcept>
#include <utility>

#include "absl/strings/str_cat.h"
#include "internal/chunked_prediction.h"

namespace rffstream {
namespace {

template <class Real>
constexpr Real kNaN = std::numeric_limits<Real>::quiet_NaN();

// Predict() maps a row of up to this many bytes on the stack.
constexpr std::size_t kStackRowBytes = 16 << 10;

template <class Real>
std::vector<BasicRls<Real>> MakeEngines(const LearnerConfig& config, int dimension) {
  std::vector<BasicRls<Real>> engines;
  if (config.loss == Loss::kHinge) {
    engines.reserve(static_cast<std::size_t>(config.num_outputs));
    for (int output = 0; output < config.num_outputs; ++output) {
      engines.emplace_back(dimension, config.ridge, config.forgetting, 1);
    }
  } else {
    engines.emplace_back(dimension, config.ridge, config.forgetting, config.num_outputs);
  }
  return engines;
}

}  // namespace

template <class Real>
absl::StatusOr<BasicLearner<Real>> BasicLearner<Real>::Create(LearnerConfig config) {
  if (absl::Status status = config.Validate(); !status.ok()) return status;
  // More than the machine holds is refused before anything is allocated:
  // under overcommit the allocation would succeed, and the pages fail later.
  const double needed = config.MemoryBytes(sizeof(Real));
  const double physical =
      static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGE_SIZE));
  if (physical > 0 && needed > physical) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "learner: ", config.features.num_features, " features need about ",
        static_cast<std::int64_t>(needed / (1 << 20)), " MiB, more than this machine's ",
        static_cast<std::int64_t>(physical / (1 << 20)), " MiB of memory"));
  }
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
      rls_(MakeEngines<Real>(config_, feature_map_.num_features() + (config_.intercept ? 1 : 0))),
      features_(row_length(), Real{1}) {}

template <class Real>
bool BasicLearner<Real>::FitsInput(std::span<const double> x) const noexcept {
  const bool fits = x.size() == static_cast<std::size_t>(input_dimension());
  assert(fits && "an input of input_dimension() values");
  return fits;
}

template <class Real>
bool BasicLearner<Real>::FitsRow(std::span<const Real> row) const noexcept {
  const bool fits = row.size() == static_cast<std::size_t>(row_length());
  assert(fits && "a feature row of row_length() values");
  return fits;
}

template <class Real>
bool BasicLearner<Real>::FitsOutputs(std::size_t targets, std::size_t priors) const noexcept {
  const auto outputs = static_cast<std::size_t>(config_.num_outputs);
  const bool fits = targets == outputs && priors == outputs;
  assert(fits && "targets and priors of num_outputs values");
  return fits;
}

template <class Real>
void BasicLearner<Real>::PredictOutputs(std::span<const double> x,
                                        std::span<Real> predictions) const noexcept {
  if (!FitsInput(x) || predictions.size() > static_cast<std::size_t>(config_.num_outputs)) {
    std::fill(predictions.begin(), predictions.end(), kNaN<Real>);
    return;
  }
  // No scratch member, so const and thread-safe: a row that fits in
  // kStackRowBytes is mapped whole on the stack, a longer one a chunk at a
  // time (internal/chunked_prediction.h); both sum the same chunks.
  const int row_length = this->row_length();
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
          weights(static_cast<int>(output)).data() + first, chunk.data(), count);
    }
  }
}

template <class Real>
Real BasicLearner<Real>::Predict(std::span<const double> x) const noexcept {
  Real prediction = 0;
  PredictOutputs(x, std::span<Real>(&prediction, 1));  // output 0 only
  return prediction;
}

template <class Real>
Real BasicLearner<Real>::Learn(std::span<const double> x, Real target) noexcept {
  Real prior = 0;
  LearnOutputs(x, std::span<const Real>(&target, 1), std::span<Real>(&prior, 1));
  return prior;
}

template <class Real>
void BasicLearner<Real>::MapRow(std::span<const double> x, std::span<Real> row) const noexcept {
  if (!FitsInput(x) || !FitsRow(row)) {
    std::fill(row.begin(), row.end(), kNaN<Real>);
    return;
  }
  const int num_features = feature_map_.num_features();
  feature_map_.Map(x, row.first(num_features));
  if (config_.intercept) row[num_features] = Real{1};
}

template <class Real>
void BasicLearner<Real>::PredictRowOutputs(std::span<const Real> row,
                                           std::span<Real> predictions) const noexcept {
  if (!FitsRow(row) || predictions.size() > static_cast<std::size_t>(config_.num_outputs)) {
    std::fill(predictions.begin(), predictions.end(), kNaN<Real>);
    return;
  }
  for (std::size_t output = 0; output < predictions.size(); ++output) {
    const int index = static_cast<int>(output);
    predictions[output] = rls(index).Predict(row, OutputInEngine(index));
  }
}

template <class Real>
bool BasicLearner<Real>::LearnOutputs(std::span<const double> x, std::span<const Real> targets,
                                      std::span<Real> priors) noexcept {
  if (!FitsInput(x) || !FitsOutputs(targets.size(), priors.size())) {
    std::fill(priors.begin(), priors.end(), kNaN<Real>);
    return false;
  }
  MapRow(x, features_);
  return LearnRowOutputs(features_, targets, priors);
}

template <class Real>
bool BasicLearner<Real>::LearnRowOutputs(std::span<const Real> row, std::span<const Real> targets,
                                         std::span<Real> priors) noexcept {
  if (!FitsRow(row) || !FitsOutputs(targets.size(), priors.size())) {
    std::fill(priors.begin(), priors.end(), kNaN<Real>);
    return false;
  }
  if (config_.loss == Loss::kHinge) return LearnRowHinge(row, targets, priors);
  const bool learned = rls_.front().LearnOutputs(row, targets, priors);
  samples_learned_ += learned ? 1 : 0;
  updates_ += learned ? 1 : 0;
  return learned;
}

template <class Real>
bool BasicLearner<Real>::LearnRowHinge(std::span<const Real> row, std::span<const Real> targets,
                                       std::span<Real> priors) noexcept {
  // Each output inside its margin takes one RLS step toward its label in its
  // own engine (AROW, see Loss::kHinge); the others are left as they are. A
  // row that is not finite gives a prior that is not finite: refused whole.
  PredictRowOutputs(row, priors);
  for (const Real prior : priors) {
    if (!std::isfinite(prior)) {
      std::fill(priors.begin(), priors.end(), std::numeric_limits<Real>::quiet_NaN());
      return false;
    }
  }
  for (std::size_t output = 0; output < priors.size(); ++output) {
    const Real label = targets[output] > 0 ? Real{1} : Real{-1};
    if (label * priors[output] >= Real{1}) continue;
    Real prior = 0;
    // An engine refuses a step that would make it non-finite by itself and
    // stays as it was; the other outputs' steps stand.
    const bool stepped = rls_[output].LearnOutputs(row, std::span<const Real>(&label, 1),
                                                   std::span<Real>(&prior, 1));
    updates_ += stepped ? 1 : 0;
  }
  ++samples_learned_;
  return true;
}

template <class Real>
void BasicLearner<Real>::ForgetToPrior(std::span<const double> inputs,
                                       std::span<const Real> targets, double ridge,
                                       std::span<Real> priors) {
  if (ridge > 0) config_.ridge = ridge;
  rls_ = MakeEngines<Real>(config_, row_length());
  for (BasicRls<Real>& rls : rls_) rls.SetThreadPool(pool_);
  const std::int64_t samples_learned = samples_learned_, updates = updates_;
  const auto d = static_cast<std::size_t>(input_dimension());
  const auto outputs = static_cast<std::size_t>(config_.num_outputs);
  std::vector<Real> scratch(outputs);
  for (std::size_t row = 0; row * d < inputs.size(); ++row) {
    const bool kept = priors.size() >= (row + 1) * outputs;
    LearnOutputs(inputs.subspan(row * d, d), targets.subspan(row * outputs, outputs),
                 kept ? priors.subspan(row * outputs, outputs) : std::span<Real>(scratch));
  }
  samples_learned_ = samples_learned;
  updates_ = updates;
}

template <class Real>
void BasicLearner<Real>::SetThreadPool(std::shared_ptr<ThreadPool> pool) {
  for (BasicRls<Real>& rls : rls_) rls.SetThreadPool(pool);
  pool_ = std::move(pool);
}

template <class Real>
typename BasicLearner<Real>::PredictionWithVariance BasicLearner<Real>::PredictWithVariance(
    std::span<const double> x) noexcept {
  if (!FitsInput(x)) return {kNaN<Real>, kNaN<Real>};
  MapRow(x, features_);
  return PredictRowWithVariance(features_);
}

template <class Real>
typename BasicLearner<Real>::PredictionWithVariance BasicLearner<Real>::PredictRowWithVariance(
    std::span<const Real> row) const noexcept {
  if (!FitsRow(row)) return {kNaN<Real>, kNaN<Real>};
  const BasicRls<Real>& rls = rls_.front();
  if (config_.loss == Loss::kHinge) {
    return {rls.Predict(row), std::numeric_limits<Real>::quiet_NaN()};
  }
  return {rls.Predict(row), rls.NoiseVarianceEstimate() * (1 + rls.CovarianceQuadraticForm(row))};
}

template <class Real>
absl::Status BasicLearner<Real>::SetInformationForm(
    const typename BasicRls<Real>::InformationForm& form, std::int64_t samples_learned,
    std::optional<double> ridge) {
  if (config_.loss != Loss::kSquared) {
    return absl::FailedPreconditionError(
        "learner: only a squared-loss model takes an information form (the hinge loss keeps one "
        "per class)");
  }
  if (!ridge.has_value()) {
    if (absl::Status set = rls_.front().SetInformationForm(form); !set.ok()) return set;
  } else {
    if (!(*ridge > 0 && std::isfinite(*ridge))) {
      return absl::FailedPreconditionError(absl::StrCat("ridge ", *ridge, " is not positive"));
    }
    if (absl::Status set = rls_.front().SetInformationForm(form, *ridge); !set.ok()) return set;
    rls_.front().SetThreadPool(pool_);  // a form that changed takes the threads its form uses
    config_.ridge = *ridge;
  }
  samples_learned_ = samples_learned;
  updates_ = samples_learned;
  return absl::OkStatus();
}

template class BasicLearner<float>;
template class BasicLearner<double>;

}  // namespace rffstream
