#include "rffstream/information_delta.h"

#include <algorithm>

#include "internal/simd_kernels.h"

namespace rffstream {

template <class Real>
BasicInformationDelta<Real>::BasicInformationDelta(int dimension, int outputs)
    : dimension_(dimension),
      outputs_(outputs),
      sums_(static_cast<std::size_t>(dimension) * dimension +
                static_cast<std::size_t>(outputs) * dimension + 1,
            0.0),
      rows_(static_cast<std::size_t>(kBlockRows) * dimension),
      targets_(static_cast<std::size_t>(kBlockRows) * outputs),
      gram_(static_cast<std::size_t>(dimension) * dimension) {}

template <class Real>
void BasicInformationDelta<Real>::Add(std::span<const Real> row, std::span<const Real> targets) {
  std::copy(row.begin(), row.end(), rows_.begin() + static_cast<std::ptrdiff_t>(waiting_) * dimension_);
  std::copy(targets.begin(), targets.end(),
            targets_.begin() + static_cast<std::ptrdiff_t>(waiting_) * outputs_);
  ++count_;
  if (++waiting_ == kBlockRows) Fold();
}

template <class Real>
void BasicInformationDelta<Real>::Fold() {
  if (waiting_ == 0) return;
  const auto dimension = static_cast<std::size_t>(dimension_);
  internal::ActiveSimdKernelTable().block_gram_double(gram_.data(), dimension_, rows_.data(),
                                                       waiting_);
  for (std::size_t i = 0; i < dimension; ++i) {  // the lower triangle
    double* sums = sums_.data() + i * dimension;
    const double* gram = gram_.data() + i * dimension;
    for (std::size_t j = 0; j <= i; ++j) sums[j] += gram[j];
  }
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
std::span<double> BasicInformationDelta<Real>::Sums() {
  Fold();
  const auto dimension = static_cast<std::size_t>(dimension_);
  for (std::size_t i = 0; i < dimension; ++i) {  // mirror the lower triangle
    for (std::size_t j = i + 1; j < dimension; ++j) sums_[i * dimension + j] = sums_[j * dimension + i];
  }
  sums_.back() = static_cast<double>(count_);
  return sums_;
}

template <class Real>
void BasicInformationDelta<Real>::Clear() {
  std::fill(sums_.begin(), sums_.end(), 0.0);
  waiting_ = 0;
  count_ = 0;
}

template class BasicInformationDelta<float>;
template class BasicInformationDelta<double>;

}  // namespace rffstream
