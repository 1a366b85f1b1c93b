// BasicRls's complete learning state in a checkpoint: the stored triangle
// (P, or the factor form's L with D on its diagonal), the pending terms, the
// weights, the refresh clock and the noise sums, checked on loading against
// what learning can reach; older files' P or Cholesky factor S are
// converted to L and D.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <new>
#include <span>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "internal/byte_buffer.h"
#include "rffstream/rls.h"

namespace rffstream {
namespace {

// The largest |value|: NaN if any value is NaN (max keeps a NaN it meets
// first, so NaN is tested for on its own), infinity if any is infinite.
template <class Real>
Real MaxAbs(std::span<const Real> values) {
  Real largest = 0;
  bool any_nan = false;
  for (const Real value : values) {
    largest = std::max(largest, std::abs(value));
    any_nan |= value != value;
  }
  return any_nan ? std::numeric_limits<Real>::quiet_NaN() : largest;
}

}  // namespace

template <class Real>
void BasicRls<Real>::AddOutput(std::span<const Real> weights, Real noise_sum) {
  // B has a column an output: L, D first.
  if (!SettleInformationFactor()) throw std::bad_alloc();
  assert(weights.size() == static_cast<std::size_t>(dimension_));
  weights_.insert(weights_.end(), weights.begin(), weights.end());
  next_weights_.resize(weights_.size());
  noise_sums_.push_back(noise_sum);
  ++num_outputs_;
}

template <class Real>
void BasicRls<Real>::SaveState(internal::ByteWriter& writer) const {
  // Holding Q: an empty triangle (Q and B follow at the file's end, and L,
  // D are made from them when needed, as here).
  std::vector<Real> triangle;
  if (information_factor_.empty()) {
    triangle.reserve(static_cast<std::size_t>(dimension_) * (dimension_ + 1) / 2);
    for (int i = 0; i < dimension_; ++i) {
      triangle.insert(triangle.end(), Row(i) + i, Row(i) + dimension_);
      // L's diagonal is 1: its place holds d_i.
      if (factor_form_) triangle[triangle.size() - (dimension_ - i)] = factor_scales_[i];
    }
  }
  writer.WriteArray<Real>(triangle);
  writer.Write(pending_scale_);
  writer.Write(pending_gain_weight_);
  writer.Write(pending_refresh_weight_);
  writer.WriteArray<Real>(std::span<const Real>(gain_).first(dimension_));
  writer.WriteArray<Real>(std::span<const Real>(refresh_gain_).first(dimension_));
  writer.WriteArray<Real>(weights_);
  writer.Write<std::int32_t>(next_refreshed_coordinate_);
  writer.Write<std::uint8_t>(next_pass_bottom_up_ ? 1 : 0);
  writer.WriteArray<Real>(noise_sums_);
  writer.Write(noise_weight_);
}

template <class Real>
absl::Status BasicRls<Real>::ReadState(internal::ByteReader& reader, bool may_lack_triangle,
                                       std::vector<Real>& triangle) {
  const auto dimension = static_cast<std::uint64_t>(dimension_);
  const std::uint64_t triangle_size = dimension * (dimension + 1) / 2;
  absl::Status status = may_lack_triangle
                            ? reader.ReadOptionalArray("RLS covariance", triangle_size, triangle)
                            : reader.ReadArray("RLS covariance", triangle_size, triangle);
  if (status.ok()) status = reader.Read("RLS pending scale", pending_scale_);
  if (status.ok()) status = reader.Read("RLS pending gain weight", pending_gain_weight_);
  if (status.ok()) status = reader.Read("RLS pending refresh weight", pending_refresh_weight_);
  if (status.ok()) status = reader.ReadArray("RLS gain", dimension, gain_);
  if (status.ok()) status = reader.ReadArray("RLS refresh gain", dimension, refresh_gain_);
  gain_.resize(stride_, Real{0});  // restore the zero padding
  refresh_gain_.resize(stride_, Real{0});
  if (status.ok()) {
    status = reader.ReadArray("RLS weights", dimension * static_cast<std::uint64_t>(num_outputs_),
                              weights_);
  }
  std::int32_t coordinate = 0;
  if (status.ok()) status = reader.Read("RLS refresh coordinate", coordinate);
  std::uint8_t bottom_up = 0;
  if (status.ok()) status = reader.Read("RLS pass direction", bottom_up);
  if (status.ok()) status = reader.ReadArray("RLS noise estimate", num_outputs_, noise_sums_);
  if (status.ok()) status = reader.Read("RLS noise estimate", noise_weight_);
  if (!status.ok()) return status;
  if (coordinate < 0 || coordinate >= dimension_) {
    return absl::DataLossError(absl::StrCat(reader.source(), ": RLS refresh coordinate ",
                                            coordinate, " is outside [0, ", dimension_, ")"));
  }
  if (bottom_up > 1) {
    return absl::DataLossError(
        absl::StrCat(reader.source(), ": RLS pass direction ", static_cast<int>(bottom_up), " is not 0 or 1"));
  }
  // What learning can leave behind, and no more: settling the pending terms
  // must not overflow, or the next sample would make P non-finite.
  const Real largest_stored = MaxAbs<Real>(triangle);
  const Real largest_gain = MaxAbs<Real>(gain_);
  const Real largest_refresh = MaxAbs<Real>(refresh_gain_);
  const bool pending_valid =
      (pending_scale_ == Real{1} || pending_scale_ == Real{1} / forgetting_) &&
      pending_gain_weight_ >= 0 && pending_gain_weight_ <= 2 && pending_refresh_weight_ >= 0 &&
      (refresh_strength_ > 0 ? pending_refresh_weight_ <= 2 / refresh_strength_
                             : pending_refresh_weight_ == 0) &&
      std::isfinite(pending_scale_ * largest_stored + pending_gain_weight_ * largest_gain * largest_gain +
               pending_refresh_weight_ * largest_refresh * largest_refresh);
  const bool noise_valid =
      noise_weight_ >= 0 && std::all_of(noise_sums_.begin(), noise_sums_.end(),
                                        [](Real sum) { return sum >= 0; });
  if (!pending_valid || !noise_valid) {
    return absl::DataLossError(
        absl::StrCat(reader.source(), ": the RLS state is not one that learning can reach"));
  }
  next_refreshed_coordinate_ = coordinate;
  next_pass_bottom_up_ = bottom_up == 1;
  return absl::OkStatus();
}

template <class Real>
absl::Status BasicRls<Real>::FactorFromSavedCovariance(const std::string& source) {
  std::vector<double> covariance(static_cast<std::size_t>(dimension_) * dimension_);
  for (int i = 0; i < dimension_; ++i) {
    for (int j = i; j < dimension_; ++j) {
      const Real value = pending_scale_ * Stored(i, j) - pending_gain_weight_ * gain_[i] * gain_[j] -
                         pending_refresh_weight_ * refresh_gain_[i] * refresh_gain_[j];
      covariance[static_cast<std::size_t>(i) * dimension_ + j] = value;
      covariance[static_cast<std::size_t>(j) * dimension_ + i] = value;
    }
  }
  const AlignedVector<Real> stored = covariance_;
  for (int i = 0; i < dimension_; ++i) std::fill(Row(i), Row(i) + stride_, Real{0});
  if (!SetFactorFromCovariance(covariance)) {
    if constexpr (std::is_same_v<Real, float>) {
      return absl::DataLossError(absl::StrCat(
          source, ": its float32 P is no longer positive definite (the covariance "
          "form lost it to rounding): this model cannot be continued; learn it again"));
    }
    // float64 kept P in the covariance form before format 9: loaded as it
    // was, it answers as before but is marked unsound, as the first sample
    // would have marked it (it learns nothing more, and is not saved).
    covariance_ = stored;
    factor_form_ = false;
    soundness_ = Soundness::kLostDefiniteness;
    return absl::OkStatus();
  }
  pending_scale_ = 1;
  pending_gain_weight_ = 0;
  pending_refresh_weight_ = 0;
  std::fill(gain_.begin(), gain_.end(), Real{0});
  std::fill(refresh_gain_.begin(), refresh_gain_.end(), Real{0});
  return absl::OkStatus();
}

template <class Real>
absl::Status BasicRls<Real>::LoadState(internal::ByteReader& reader, StoredTriangle stored) {
  information_factor_ = AlignedVector<Real>();
  std::vector<Real> triangle;
  const bool may_lack_triangle = factor_form_ && stored == StoredTriangle::kFactorsOrNone;
  if (absl::Status read = ReadState(reader, may_lack_triangle, triangle); !read.ok()) return read;
  // The factor form settles its terms at once: none are pending.
  const auto none_pending = [&] {
    return pending_scale_ == Real{1} && pending_gain_weight_ == 0 && pending_refresh_weight_ == 0
               ? absl::OkStatus()
               : absl::DataLossError(
                     absl::StrCat(reader.source(), ": a factor-form RLS state with pending terms"));
  };
  if (triangle.empty()) {  // Q follows (ReadInformationFactor)
    factor_scales_.clear();
    return none_pending();
  }
  const Real* source = triangle.data();
  for (int i = 0; i < dimension_; ++i) {
    std::copy(source, source + (dimension_ - i), Row(i) + i);
    source += dimension_ - i;
  }
  if (!factor_form_) return absl::OkStatus();
  if (stored == StoredTriangle::kCovariance) {
    // A model saved before its precision had the factor form: P, converted once.
    if (absl::Status converted = FactorFromSavedCovariance(reader.source()); !converted.ok()) {
      return converted;
    }
    return absl::OkStatus();  // factored, or kept as P and unsound
  }
  if (absl::Status settled = none_pending(); !settled.ok()) return settled;
  // The stored diagonal (d, or S's diagonal) is positive, as the updates
  // keep it: a file whose diagonal is not is corrupt, and would learn into
  // a broken model.
  factor_scales_.resize(static_cast<std::size_t>(dimension_));
  for (int j = 0; j < dimension_; ++j) {
    const Real diagonal = Row(j)[j];
    if (!(diagonal > Real{0}) || !std::isfinite(diagonal)) {
      return absl::DataLossError(absl::StrCat(reader.source(), ": the RLS factor's diagonal entry ",
                                              j, " is ", diagonal, ", not positive and finite"));
    }
    Real* column = Row(j);
    if (stored == StoredTriangle::kCholeskyFactor) {
      // S = L D^(1/2), converted once: d_j = S_jj², L's column is S's over S_jj.
      for (int i = j + 1; i < dimension_; ++i) column[i] /= diagonal;
      factor_scales_[j] = diagonal * diagonal;
      if (!std::isfinite(MaxAbs<Real>(std::span<const Real>(column + j, dimension_ - j))) ||
          !(factor_scales_[j] > 0) || !std::isfinite(factor_scales_[j])) {
        return absl::DataLossError(absl::StrCat(reader.source(), ": the RLS factor's column ", j,
                                                " is outside float", 8 * sizeof(Real), "'s range"));
      }
    } else {
      factor_scales_[j] = diagonal;
    }
    column[j] = 1;
  }
  RecomputeFactorBounds();
  return absl::OkStatus();
}

template void BasicRls<float>::AddOutput(std::span<const float>, float);
template void BasicRls<double>::AddOutput(std::span<const double>, double);
template void BasicRls<float>::SaveState(internal::ByteWriter&) const;
template void BasicRls<double>::SaveState(internal::ByteWriter&) const;
template absl::Status BasicRls<float>::LoadState(internal::ByteReader&, StoredTriangle);
template absl::Status BasicRls<double>::LoadState(internal::ByteReader&, StoredTriangle);
template absl::Status BasicRls<float>::ReadState(internal::ByteReader&, bool, std::vector<float>&);
template absl::Status BasicRls<double>::ReadState(internal::ByteReader&, bool, std::vector<double>&);
template absl::Status BasicRls<float>::FactorFromSavedCovariance(const std::string&);
template absl::Status BasicRls<double>::FactorFromSavedCovariance(const std::string&);

}  // namespace rffstream
