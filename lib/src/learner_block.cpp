// BasicLearner's blocks: k samples mapped to features (split across the
// pool's threads) and learned with one rank-k update of the shared P, or
// one sample at a time for the hinge loss's per-class engines.
#include <algorithm>
#include <cassert>
#include <cstddef>
#include <limits>

#include "rffstream/learner.h"

namespace rffstream {

template <class Real>
int BasicLearner<Real>::LearnBlock(std::span<const double> inputs, std::span<const Real> targets,
                                    std::span<Real> priors) {
  const auto outputs = static_cast<std::size_t>(config_.num_outputs);
  const std::size_t k = targets.size() / outputs;
  const std::size_t input_dimension = static_cast<std::size_t>(this->input_dimension());
  if (inputs.size() != k * input_dimension || targets.size() != k * outputs ||
      priors.size() != targets.size()) {
    assert(false && "a block of k inputs of input_dimension() values");
    std::fill(priors.begin(), priors.end(), std::numeric_limits<Real>::quiet_NaN());
    return 0;
  }
  const std::size_t num_features = static_cast<std::size_t>(feature_map_.num_features());
  const std::size_t row_length = static_cast<std::size_t>(this->row_length());
  block_features_.resize(k * num_features);
  const int parts = pool_ == nullptr ? 1 : static_cast<int>(std::min<std::size_t>(pool_->size(), k));
  auto map_rows = [&](int index) {
    const std::size_t first = k * index / parts, end = k * (index + 1) / parts;
    feature_map_.MapBlock(inputs.subspan(first * input_dimension, (end - first) * input_dimension),
                          std::span<Real>(block_features_).subspan(first * num_features,
                                                                   (end - first) * num_features));
  };
  if (parts > 1) {
    pool_->Run(parts, map_rows);
  } else {
    map_rows(0);
  }
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
  const auto outputs = static_cast<std::size_t>(config_.num_outputs);
  if (rows.size() != targets.size() / outputs * static_cast<std::size_t>(row_length()) ||
      targets.size() % outputs != 0 || priors.size() != targets.size()) {
    assert(false && "a block of k feature rows of row_length() values");
    std::fill(priors.begin(), priors.end(), std::numeric_limits<Real>::quiet_NaN());
    return 0;
  }
  if (config_.loss == Loss::kHinge) {
    const auto row_length = static_cast<std::size_t>(this->row_length());
    int learned = 0;
    for (std::size_t s = 0; s * row_length < rows.size(); ++s) {
      learned += LearnRowHinge(rows.subspan(s * row_length, row_length),
                               targets.subspan(s * outputs, outputs),
                               priors.subspan(s * outputs, outputs))
                     ? 1
                     : 0;
    }
    return learned;
  }
  const int learned = rls_.front().LearnBlock(rows, targets, priors);
  samples_learned_ += learned;
  updates_ += learned;
  return learned;
}

template int BasicLearner<float>::LearnBlock(std::span<const double>, std::span<const float>,
                                             std::span<float>);
template int BasicLearner<double>::LearnBlock(std::span<const double>, std::span<const double>,
                                              std::span<double>);
template int BasicLearner<float>::LearnRowBlock(std::span<const float>, std::span<const float>,
                                                std::span<float>);
template int BasicLearner<double>::LearnRowBlock(std::span<const double>, std::span<const double>,
                                                 std::span<double>);

}  // namespace rffstream
