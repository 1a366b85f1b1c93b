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
#include <cstdint>
#include <new>
#include <vector>

#include "absl/strings/str_cat.h"
#include "internal/byte_buffer.h"
#include "internal/information_update.h"
#include "internal/safe_bounds.h"
#include "rffstream/rls.h"

namespace rffstream {

using internal::kSafeBound;

template <class Real>
bool BasicRls<Real>::LearnBulkBlock(std::span<const Real> features, std::span<const Real> targets,
                                    std::span<Real> priors) {
  const auto d = static_cast<std::size_t>(dimension_);
  const auto outputs = static_cast<std::size_t>(num_outputs_);
  const std::size_t k = targets.size() / outputs;
  // The bounds one sample at a time holds a sample to (rls_factor_form.cpp),
  // on the features' lengths, the errors of the priors and the new weights:
  // a block with a sample beyond them is learned one sample at a time, which
  // refuses that sample and learns the others.
  for (std::size_t s = 0; s < k; ++s) {
    double squares = 0;
    for (std::size_t i = 0; i < d; ++i) squares += static_cast<double>(features[s * d + i]) * features[s * d + i];
    if (!(squares < kSafeBound<Real>)) return false;
  }
  // A Q started for a block that is then refused is dropped: L, D still
  // hold the model, and settling Q back would change their bits.
  const bool starts = information_factor_.empty();
  const auto refuse = [&] {
    if (starts) {
      information_factor_ = AlignedVector<Real>();
      block_factor_ = AlignedVector<Real>();
    }
    return false;
  };
  try {
    if (starts) StartInformationFactor();
    // The update writes a copy of [Q B], kept only if the block is sound.
    block_factor_ = information_factor_;
    const std::size_t pass = std::min<std::size_t>(k, internal::InformationRowsPerPass(dimension_));
    block_scratch_.resize(pass * (d + outputs) + outputs);
  } catch (const std::bad_alloc&) {
    block_factor_ = AlignedVector<Real>();
    return refuse();
  }
  Real* added_costs = block_scratch_.data() + (block_scratch_.size() - outputs);
  std::copy(weights_.begin(), weights_.end(), next_weights_.begin());
  try {  // the panels' products allocate their temporaries (on this thread without a pool)
    internal::UpdateInformation(internal::InformationUpdateArguments<Real>{
        block_factor_.data(), block_factor_.data() + d * stride_, stride_, dimension_,
        static_cast<int>(k), num_outputs_, features.data(), targets.data(), next_weights_.data(),
        priors.data(), added_costs, block_scratch_.data(), pool_.get()});
  } catch (const std::bad_alloc&) {
    block_factor_ = AlignedVector<Real>();
    return refuse();
  }
  bool safe = true;
  for (std::size_t s = 0; s < k * outputs && safe; ++s) {
    const double error = static_cast<double>(targets[s]) - priors[s];
    safe = error * error < kSafeBound<Real>;
  }
  // Weights within the bound are finite, and so are Q and B below the
  // diagonal (w_i = (B_i - Σ_(j<i) Q_ij w_j) / Q_ii: the matrix solver has no
  // shortcut for a zero w_j); the diagonal is checked on its own.
  for (std::size_t i = 0; i < next_weights_.size() && safe; ++i) {
    safe = std::abs(static_cast<double>(next_weights_[i])) < kSafeBound<Real>;
  }
  // And d_j = 1 / Q_jj² once settled stays far from underflow, as single steps keep it.
  for (std::size_t j = 0; j < d && safe; ++j) {
    const double diagonal = block_factor_[j * stride_ + j];
    safe = std::isfinite(diagonal) && diagonal * diagonal * internal::kSmallestSafeScale<Real> < 1;
  }
  for (std::size_t o = 0; o < outputs && safe; ++o) {
    safe = static_cast<double>(noise_sums_[o]) + added_costs[o] < kSafeBound<Real>;
  }
  if (!safe) return refuse();
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
bool BasicRls<Real>::SettleInformationFactor() {
  if (information_factor_.empty()) return true;
  const auto d = static_cast<std::size_t>(dimension_);
  std::vector<double> inverse;
  try {
    inverse.resize(d * d);
    for (std::size_t j = 0; j < d; ++j) {
      for (std::size_t i = j; i < d; ++i) inverse[j * d + i] = information_factor_[j * stride_ + i];
    }
    internal::InvertLowerTriangular(inverse.data(), dimension_);
  } catch (const std::bad_alloc&) {
    return false;  // still in bulk: learning goes on there
  }
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
  return true;
}

template <class Real>
BasicRls<Real> BasicRls<Real>::Settled() const {
  BasicRls copy(*this);
  copy.block_factor_ = AlignedVector<Real>();
  // (The callers allocate anyway: without the memory, they throw as they would.)
  if (!copy.SettleInformationFactor()) throw std::bad_alloc();
  return copy;
}

// Q's columns from the diagonal down, then B's columns.
template <class Real>
void BasicRls<Real>::WriteInformationFactor(internal::ByteWriter& writer) const {
  writer.Write<std::uint8_t>(information_factor_.empty() ? 0 : 1);
  if (information_factor_.empty()) return;
  const auto d = static_cast<std::size_t>(dimension_);
  std::vector<Real> packed;
  packed.reserve(d * (d + 1) / 2 + d * static_cast<std::size_t>(num_outputs_));
  for (std::size_t j = 0; j < d; ++j) {
    packed.insert(packed.end(), information_factor_.begin() + j * stride_ + j,
                  information_factor_.begin() + j * stride_ + d);
  }
  for (std::size_t o = 0; o < static_cast<std::size_t>(num_outputs_); ++o) {
    const auto column = information_factor_.begin() + (d + o) * stride_;
    packed.insert(packed.end(), column, column + d);
  }
  writer.WriteArray<Real>(packed);
}

template <class Real>
absl::Status BasicRls<Real>::ReadInformationFactor(internal::ByteReader& reader) {
  information_factor_ = AlignedVector<Real>();
  // An empty triangle (format 16) left P's factors to be made from Q.
  const bool factors_from_q = factor_form_ && factor_scales_.empty();
  std::uint8_t in_bulk = 0;
  if (absl::Status status = reader.Read("RLS bulk flag", in_bulk); !status.ok()) return status;
  if (in_bulk == 0 && factors_from_q) {
    return absl::DataLossError(absl::StrCat(
        reader.source(), ": the RLS state holds neither P's factors nor the information factor"));
  }
  if (in_bulk == 0) return absl::OkStatus();
  if (in_bulk > 1 || !factor_form_ || forgetting_ != Real{1}) {
    return absl::DataLossError(absl::StrCat(reader.source(), ": RLS bulk flag ", static_cast<int>(in_bulk),
                                            " for an engine that cannot learn in bulk"));
  }
  const auto d = static_cast<std::size_t>(dimension_);
  std::vector<Real> packed;
  if (absl::Status status = reader.ReadArray("RLS information factor",
                                             d * (d + 1) / 2 + d * static_cast<std::size_t>(num_outputs_), packed);
      !status.ok()) {
    return status;
  }
  information_factor_.assign((d + static_cast<std::size_t>(num_outputs_)) * stride_, Real{0});
  auto next = packed.begin();
  for (std::size_t j = 0; j < d + static_cast<std::size_t>(num_outputs_); ++j) {
    const std::size_t first = j < d ? j : 0;
    std::copy_n(next, d - first, information_factor_.begin() + j * stride_ + first);
    next += static_cast<std::ptrdiff_t>(d - first);
  }
  bool valid = std::all_of(packed.begin(), packed.end(), [](Real value) { return std::isfinite(value); });
  // Its diagonal gives d_j = 1 / Q_jj², which must stay far from underflow and overflow.
  for (std::size_t j = 0; j < d && valid; ++j) {
    valid = internal::SafeInformationDiagonal<Real>(
        static_cast<double>(information_factor_[j * stride_ + j]));
  }
  if (!valid) {
    information_factor_ = AlignedVector<Real>();
    return absl::DataLossError(absl::StrCat(reader.source(),
                                            ": the RLS information factor holds a number that is not finite, or a "
                                            "diagonal entry whose d would leave the range"));
  }
  // L, D are Q's, made when needed (SettleInformationFactor writes every d).
  if (factors_from_q) factor_scales_.assign(d, Real{1});
  return absl::OkStatus();
}

#define RFFSTREAM_INSTANTIATE_BULK(Real)                                                        \
  template bool BasicRls<Real>::LearnBulkBlock(std::span<const Real>, std::span<const Real>,    \
                                               std::span<Real>);                                \
  template void BasicRls<Real>::StartInformationFactor();                                       \
  template bool BasicRls<Real>::SettleInformationFactor();                                      \
  template BasicRls<Real> BasicRls<Real>::Settled() const;                                      \
  template void BasicRls<Real>::WriteInformationFactor(internal::ByteWriter&) const;            \
  template absl::Status BasicRls<Real>::ReadInformationFactor(internal::ByteReader&);
RFFSTREAM_INSTANTIATE_BULK(float)
RFFSTREAM_INSTANTIATE_BULK(double)
#undef RFFSTREAM_INSTANTIATE_BULK

}  // namespace rffstream
