#include "rffstream/rls.h"

#include <cassert>
#include <cstddef>

#include "absl/strings/str_cat.h"
#include "internal/byte_buffer.h"

namespace rffstream {

template <class Real>
BasicRls<Real>::BasicRls(int dimension, double ridge, double forgetting)
    : dimension_(dimension),
      forgetting_(static_cast<Real>(forgetting)),
      refresh_strength_(static_cast<Real>(dimension * (1.0 - forgetting) * ridge)),
      covariance_(static_cast<std::size_t>(dimension) * dimension, Real{0}),
      weights_(dimension, Real{0}),
      gain_(dimension, Real{0}) {
  assert(dimension > 0 && ridge > 0 && forgetting > 0 && forgetting <= 1);
  for (int i = 0; i < dimension; ++i) {
    covariance_[static_cast<std::size_t>(i) * dimension + i] = static_cast<Real>(1.0 / ridge);
  }
}

template <class Real>
Real BasicRls<Real>::Predict(std::span<const Real> z) const {
  Real sum = 0;
  for (int i = 0; i < dimension_; ++i) sum += weights_[i] * z[i];
  return sum;
}

template <class Real>
void BasicRls<Real>::SubtractOuterProduct(std::span<const Real> gain, Real denominator) {
  // (g_i g_j) / c rounds identically for (i, j) and (j, i), keeping P exactly
  // symmetric. That matters: an antisymmetric part of P is untouched by the
  // symmetric updates and grows as β^-n under forgetting (seen in tests as P
  // diverging after a few hundred samples at β = 0.9 when rounded as (g_i / c) g_j).
  const Real inverse = Real{1} / denominator;
  for (int i = 0; i < dimension_; ++i) {
    Real* row = covariance_.data() + static_cast<std::size_t>(i) * dimension_;
    for (int j = 0; j < dimension_; ++j) row[j] -= (gain[i] * gain[j]) * inverse;
  }
}

template <class Real>
Real BasicRls<Real>::Learn(std::span<const Real> z, Real target) {
  assert(static_cast<int>(z.size()) == dimension_);
  const Real prior = Predict(z);
  // A <- β A is P <- P / β, folded into the gain: u = P z / β.
  const Real decay = Real{1} / forgetting_;
  for (int i = 0; i < dimension_; ++i) {
    const Real* row = covariance_.data() + static_cast<std::size_t>(i) * dimension_;
    Real sum = 0;
    for (int j = 0; j < dimension_; ++j) sum += row[j] * z[j];
    gain_[i] = decay * sum;
  }
  Real denominator = 1;
  for (int i = 0; i < dimension_; ++i) denominator += z[i] * gain_[i];
  const Real error = target - prior;
  for (int i = 0; i < dimension_; ++i) weights_[i] += gain_[i] * (error / denominator);
  if (forgetting_ != Real{1}) {
    for (Real& entry : covariance_) entry *= decay;
  }
  SubtractOuterProduct(gain_, denominator);
  if (forgetting_ != Real{1}) RefreshRegularization();
  return prior;
}

template <class Real>
void BasicRls<Real>::RefreshRegularization() {
  // A += α e_i e_iᵀ: the gain is α P e_i (column i of P, P symmetric) and b is
  // unchanged, so w -= α P e_i w_i / (1 + α P_ii).
  const int i = next_refreshed_coordinate_;
  next_refreshed_coordinate_ = (i + 1) % dimension_;
  const Real* row = covariance_.data() + static_cast<std::size_t>(i) * dimension_;
  for (int j = 0; j < dimension_; ++j) gain_[j] = refresh_strength_ * row[j];
  const Real denominator = 1 + gain_[i];
  const Real weight_i = weights_[i];
  for (int j = 0; j < dimension_; ++j) weights_[j] -= gain_[j] * (weight_i / denominator);
  // P -= α P e_i e_iᵀ P / (1 + α P_ii) = g gᵀ / (α (1 + α P_ii)).
  SubtractOuterProduct(gain_, refresh_strength_ * denominator);
}

template <class Real>
std::vector<Real> BasicRls<Real>::CovarianceMatrix() const {
  return covariance_;
}

template <class Real>
void BasicRls<Real>::SaveState(internal::ByteWriter& writer) const {
  writer.WriteArray<Real>(covariance_);
  writer.WriteArray<Real>(weights_);
  writer.Write<std::int32_t>(next_refreshed_coordinate_);
}

template <class Real>
absl::Status BasicRls<Real>::LoadState(internal::ByteReader& reader) {
  const auto dimension = static_cast<std::uint64_t>(dimension_);
  if (absl::Status status = reader.ReadArray("RLS covariance", dimension * dimension, covariance_);
      !status.ok()) {
    return status;
  }
  if (absl::Status status = reader.ReadArray("RLS weights", dimension, weights_); !status.ok()) {
    return status;
  }
  std::int32_t coordinate = 0;
  if (absl::Status status = reader.Read("RLS refresh coordinate", coordinate); !status.ok()) {
    return status;
  }
  if (coordinate < 0 || coordinate >= dimension_) {
    return absl::DataLossError(absl::StrCat(reader.source(), ": RLS refresh coordinate ",
                                            coordinate, " is outside [0, ", dimension_, ")"));
  }
  next_refreshed_coordinate_ = coordinate;
  return absl::OkStatus();
}

template class BasicRls<float>;
template class BasicRls<double>;

}  // namespace rffstream
