// BasicRls::LearnBlock in bulk: a block of kBulkSamples or more (the factor
// form, β = 1) joins the square root of the information matrix, A = Qᵀ Q, by
// one QR factorization at the rate of matrix products
// (internal/information_update.h). Its priors are made with the weights
// before the block, as a model serving while it learns would make them.
//
// Q, with B = Q w beside it, is kept from one bulk block to the next; P's
// factors L and D are recomputed from it, in double, only when something
// else needs them (SettleInformationFactor). Every other entry point
// settles first, and the const ones read a settled copy.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "internal/information_update.h"
#include "rffstream/rls.h"

namespace rffstream {
namespace {

template <class Real>
bool AllFinite(std::span<const Real> values) {
  return std::all_of(values.begin(), values.end(), [](Real value) { return std::isfinite(value); });
}

}  // namespace

template <class Real>
bool BasicRls<Real>::LearnBulkBlock(std::span<const Real> features, std::span<const Real> targets,
                                    std::span<Real> priors) {
  // A sample holding a number that is not finite is refused on its own, by
  // learning the block one sample at a time.
  if (!AllFinite(features) || !AllFinite(targets)) return false;
  const auto d = static_cast<std::size_t>(dimension_);
  const auto outputs = static_cast<std::size_t>(num_outputs_);
  const std::size_t k = targets.size() / outputs;
  if (information_factor_.empty()) StartInformationFactor();
  // The update writes a copy of [Q B], kept only if the block is sound.
  block_factor_ = information_factor_;
  next_weights_ = weights_;
  const std::size_t pass = std::min<std::size_t>(k, internal::kInformationRowsPerPass);
  block_scratch_.resize(pass * (d + outputs) + outputs);
  Real* added_costs = block_scratch_.data() + pass * (d + outputs);
  internal::UpdateInformation(internal::InformationUpdateArguments<Real>{
      block_factor_.data(), block_factor_.data() + d * stride_, stride_, dimension_,
      static_cast<int>(k), num_outputs_, features.data(), targets.data(), next_weights_.data(),
      priors.data(), added_costs, block_scratch_.data(), pool_.get()});
  // Finite numbers can still overflow: a huge target, weights of a nearly
  // singular Q. Such a block is learned one sample at a time, which refuses
  // the samples that cause it. Finite weights mean finite Q and B below the
  // diagonal (w_i = (B_i - Σ_(j<i) Q_ij w_j) / Q_ii), so the diagonal is
  // what is left to check.
  bool finite = AllFinite<Real>(next_weights_);
  for (std::size_t j = 0; j < d && finite; ++j) finite = std::isfinite(block_factor_[j * stride_ + j]);
  for (std::size_t o = 0; o < outputs && finite; ++o) finite = std::isfinite(noise_sums_[o] + added_costs[o]);
  if (!finite) return false;
  information_factor_.swap(block_factor_);
  weights_.swap(next_weights_);
  for (std::size_t o = 0; o < outputs; ++o) noise_sums_[o] += added_costs[o];
  noise_weight_ += static_cast<Real>(k);
  return true;
}

// Q = D^(-1/2) L⁻¹, so that Qᵀ Q = L⁻ᵀ D⁻¹ L⁻¹ = P⁻¹; and B = Q w.
template <class Real>
void BasicRls<Real>::StartInformationFactor() {
  const auto d = static_cast<std::size_t>(dimension_);
  std::vector<double> inverse(d * d);  // column-major
  for (std::size_t j = 0; j < d; ++j) {
    for (std::size_t i = j; i < d; ++i) inverse[j * d + i] = Row(static_cast<int>(j))[i];
  }
  internal::InvertLowerTriangular(inverse.data(), dimension_);
  information_factor_.assign((d + static_cast<std::size_t>(num_outputs_)) * stride_, Real{0});
  for (std::size_t j = 0; j < d; ++j) {
    for (std::size_t i = j; i < d; ++i) {
      inverse[j * d + i] /= std::sqrt(static_cast<double>(factor_scales_[i]));
      information_factor_[j * stride_ + i] = static_cast<Real>(inverse[j * d + i]);
    }
  }
  for (int o = 0; o < num_outputs_; ++o) {
    const Real* w = weights_.data() + static_cast<std::size_t>(o) * d;
    Real* rotated = information_factor_.data() + (d + static_cast<std::size_t>(o)) * stride_;
    for (std::size_t i = 0; i < d; ++i) {
      double sum = 0;
      for (std::size_t j = 0; j <= i; ++j) sum += inverse[j * d + i] * static_cast<double>(w[j]);
      rotated[i] = static_cast<Real>(sum);
    }
  }
}

// Q⁻¹ = L D^(1/2): column j divided by its diagonal is L's, whose square is d_j.
template <class Real>
void BasicRls<Real>::SettleInformationFactor() {
  if (information_factor_.empty()) return;
  const auto d = static_cast<std::size_t>(dimension_);
  std::vector<double> inverse(d * d);
  for (std::size_t j = 0; j < d; ++j) {
    for (std::size_t i = j; i < d; ++i) inverse[j * d + i] = information_factor_[j * stride_ + i];
  }
  internal::InvertLowerTriangular(inverse.data(), dimension_);
  for (std::size_t j = 0; j < d; ++j) {
    const double diagonal = inverse[j * d + j];
    factor_scales_[j] = static_cast<Real>(diagonal * diagonal);
    Real* column = Row(static_cast<int>(j));
    column[j] = Real{1};
    for (std::size_t i = j + 1; i < d; ++i) column[i] = static_cast<Real>(inverse[j * d + i] / diagonal);
  }
  information_factor_ = AlignedVector<Real>();
  block_factor_ = AlignedVector<Real>();
  RecomputeFactorBounds();
}

template <class Real>
BasicRls<Real> BasicRls<Real>::Settled() const {
  BasicRls copy(*this);
  copy.SettleInformationFactor();
  return copy;
}

#define RFFSTREAM_INSTANTIATE_BULK(Real)                                                        \
  template bool BasicRls<Real>::LearnBulkBlock(std::span<const Real>, std::span<const Real>,    \
                                               std::span<Real>);                                \
  template void BasicRls<Real>::StartInformationFactor();                                       \
  template void BasicRls<Real>::SettleInformationFactor();                                      \
  template BasicRls<Real> BasicRls<Real>::Settled() const;
RFFSTREAM_INSTANTIATE_BULK(float)
RFFSTREAM_INSTANTIATE_BULK(double)
#undef RFFSTREAM_INSTANTIATE_BULK

}  // namespace rffstream
