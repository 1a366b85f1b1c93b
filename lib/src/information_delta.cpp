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
                static_cast<std::size_t>(outputs) * dimension,
            0.0),
      refresh_diagonal_(static_cast<std::size_t>(dimension), 0.0),
      packed_(sums_.size() + 1, 0.0),
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
  const std::int64_t reference = std::max(reference_clock_, latest_clock_);
  if (forgetting_ != 1.0 && reference != reference_clock_) {
    const double decay = std::pow(forgetting_, static_cast<double>(reference - reference_clock_));
    for (double& sum : sums_) sum *= decay;
    for (double& term : refresh_diagonal_) term *= decay;
  }
  reference_clock_ = reference;
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
std::span<double> BasicInformationDelta<Real>::Sums(std::int64_t at) {
  Fold();
  const auto dimension = static_cast<std::size_t>(dimension_);
  const double decay =
      forgetting_ == 1.0 ? 1.0
                         : std::pow(forgetting_, static_cast<double>(std::max<std::int64_t>(
                                                     0, at - reference_clock_)));
  for (std::size_t i = 0; i < dimension; ++i) {  // both triangles from the lower one
    for (std::size_t j = 0; j <= i; ++j) {
      const double value = decay * sums_[i * dimension + j];
      packed_[i * dimension + j] = packed_[j * dimension + i] = value;
    }
    packed_[i * dimension + i] += decay * refresh_diagonal_[i];
  }
  for (std::size_t i = dimension * dimension; i < sums_.size(); ++i) packed_[i] = decay * sums_[i];
  packed_.back() = static_cast<double>(count_);
  return packed_;
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
