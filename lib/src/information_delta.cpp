#include "rffstream/information_delta.h"

#include <algorithm>
#include <cmath>

#include "internal/simd_kernels.h"

namespace rffstream {

template <class Real>
BasicInformationDelta<Real>::BasicInformationDelta(int dimension, int outputs, double forgetting,
                                                   double refresh)
    : dimension_(dimension),
      outputs_(outputs),
      forgetting_(forgetting),
      refresh_(refresh),
      sums_(static_cast<std::size_t>(dimension) * dimension +
                static_cast<std::size_t>(outputs) * dimension + 1,
            0.0),
      refresh_diagonal_(static_cast<std::size_t>(dimension), 0.0),
      rows_(static_cast<std::size_t>(kBlockRows) * dimension),
      targets_(static_cast<std::size_t>(kBlockRows) * outputs),
      clocks_(static_cast<std::size_t>(kBlockRows)) {}

template <class Real>
void BasicInformationDelta<Real>::Add(std::span<const Real> row, std::span<const Real> targets,
                                      std::int64_t clock) {
  std::copy(row.begin(), row.end(), rows_.begin() + static_cast<std::ptrdiff_t>(waiting_) * dimension_);
  std::copy(targets.begin(), targets.end(),
            targets_.begin() + static_cast<std::ptrdiff_t>(waiting_) * outputs_);
  clocks_[static_cast<std::size_t>(waiting_)] = clock;
  latest_clock_ = std::max(latest_clock_, clock);
  ++count_;
  if (++waiting_ == kBlockRows) Fold();
}

template <class Real>
void BasicInformationDelta<Real>::Fold() {
  if (waiting_ == 0) return;
  const auto dimension = static_cast<std::size_t>(dimension_);
  // Move the reference to the newest clock: what is there already decays.
  MoveReference(latest_clock_);
  const std::int64_t reference = reference_clock_;
  // Each row weighted β^(reference - t): the Gram of rows times √weight.
  for (int s = 0; s < waiting_ && forgetting_ != 1.0; ++s) {
    const double age = static_cast<double>(reference - clocks_[static_cast<std::size_t>(s)]);
    const double weight = std::pow(forgetting_, age);
    const double root = std::sqrt(weight);
    double* row = rows_.data() + static_cast<std::size_t>(s) * dimension;
    for (std::size_t j = 0; j < dimension; ++j) row[j] *= root;
    for (int output = 0; output < outputs_; ++output) {
      targets_[static_cast<std::size_t>(s) * outputs_ + output] *= root;
    }
    const std::int64_t clock = clocks_[static_cast<std::size_t>(s)];
    const std::int64_t coordinate = ((clock - 1) % dimension_ + dimension_) % dimension_;
    refresh_diagonal_[static_cast<std::size_t>(coordinate)] += refresh_ * weight;
  }
  internal::ActiveSimdKernelTable().add_block_gram_double(sums_.data(), dimension_, rows_.data(),
                                                           waiting_);
  double* target_sums = sums_.data() + dimension * dimension;
  for (int s = 0; s < waiting_; ++s) {
    const double* row = rows_.data() + static_cast<std::size_t>(s) * dimension;
    for (int output = 0; output < outputs_; ++output) {
      const double target = targets_[static_cast<std::size_t>(s) * outputs_ + output];
      double* sums = target_sums + static_cast<std::size_t>(output) * dimension;
      for (std::size_t j = 0; j < dimension; ++j) sums[j] += target * row[j];
    }
  }
  waiting_ = 0;
}

template <class Real>
void BasicInformationDelta<Real>::MoveReference(std::int64_t clock) {
  if (clock <= reference_clock_) return;
  if (forgetting_ != 1.0) {
    const double decay = std::pow(forgetting_, static_cast<double>(clock - reference_clock_));
    for (std::size_t i = 0; i + 1 < sums_.size(); ++i) sums_[i] *= decay;  // not the count's place
    for (double& term : refresh_diagonal_) term *= decay;
  }
  reference_clock_ = clock;
}

template <class Real>
std::span<double> BasicInformationDelta<Real>::Sums(std::int64_t at) {
  Fold();
  MoveReference(at);
  // The refresh terms join ΔA's diagonal (and decay with it from here on),
  // and the upper triangle is the lower one's: rows folded later add to the
  // lower triangle only, so this is the same whenever it is called.
  const auto dimension = static_cast<std::size_t>(dimension_);
  for (std::size_t i = 0; i < dimension; ++i) {
    for (std::size_t j = 0; j < i; ++j) sums_[j * dimension + i] = sums_[i * dimension + j];
    sums_[i * dimension + i] += refresh_diagonal_[i];
    refresh_diagonal_[i] = 0;
  }
  sums_.back() = static_cast<double>(count_);
  return sums_;
}

template <class Real>
void BasicInformationDelta<Real>::Clear() {
  std::fill(sums_.begin(), sums_.end(), 0.0);
  std::fill(refresh_diagonal_.begin(), refresh_diagonal_.end(), 0.0);
  waiting_ = 0;
  count_ = 0;
}

template class BasicInformationDelta<float>;
template class BasicInformationDelta<double>;

}  // namespace rffstream
