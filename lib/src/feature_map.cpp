#include "rffstream/feature_map.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "internal/frequency_sampler.h"
#include "internal/sincos_kernels.h"
#include "internal/trig.h"

namespace rffstream {

template <class Real>
absl::StatusOr<BasicFeatureMap<Real>> BasicFeatureMap<Real>::Create(FeatureMapConfig config) {
  if (absl::Status status = config.Validate(); !status.ok()) return status;
  // Choose the SIMD kernel now, so that no lazy initialization lands on the
  // first Map() of a latency-sensitive caller.
  internal::ActiveSinCosKernels();
  internal::SampledFrequencies sampled = internal::SampleFrequencies(config);
  internal::FoldInputTransform(config, sampled);
  const double scale = config.map == FeatureMapKind::kPair
                           ? std::sqrt(1.0 / sampled.count)
                           : std::sqrt(2.0 / config.num_features);
  return BasicFeatureMap(std::move(config), sampled.count,
                         std::vector<Real>(sampled.projection.begin(), sampled.projection.end()),
                         std::vector<Real>(sampled.offsets.begin(), sampled.offsets.end()),
                         static_cast<Real>(scale));
}

template <class Real>
BasicFeatureMap<Real>::BasicFeatureMap(FeatureMapConfig config, int num_frequencies,
                                       std::vector<Real> projection, std::vector<Real> offsets,
                                       Real scale)
    : config_(std::move(config)),
      num_frequencies_(num_frequencies),
      projection_(std::move(projection)),
      offsets_(std::move(offsets)),
      scale_(scale) {}

template <class Real>
Real BasicFeatureMap<Real>::Argument(int frequency, std::span<const Real> x) const {
  const Real* row = projection_.data() + static_cast<size_t>(frequency) * x.size();
  Real sum = offsets_[frequency];
  for (size_t j = 0; j < x.size(); ++j) sum += row[j] * x[j];
  return sum;
}

template <class Real>
void BasicFeatureMap<Real>::Map(std::span<const Real> x, std::span<Real> z) const noexcept {
  if (config_.map == FeatureMapKind::kPhase) {
    for (int i = 0; i < num_frequencies_; ++i) z[i] = Argument(i, x);
    internal::ScaledCosInPlace(z, scale_);
    return;
  }
  // Pair map: arguments go into the sin half, whose cos half is then written.
  std::span<Real> cos_half = z.first(num_frequencies_);
  std::span<Real> sin_half = z.subspan(num_frequencies_);
  for (int i = 0; i < num_frequencies_; ++i) sin_half[i] = Argument(i, x);
  internal::ScaledSinCosInPlace(sin_half, cos_half, scale_);
}

template <class Real>
void BasicFeatureMap<Real>::MapRange(std::span<const Real> x, int first,
                                     std::span<Real> z) const noexcept {
  const int count = static_cast<int>(z.size());
  for (int k = 0; k < count; ++k) z[k] = Argument((first + k) % num_frequencies_, x);
  if (config_.map == FeatureMapKind::kPhase) {
    internal::ScaledCosInPlace(z, scale_);
    return;
  }
  // Pair map: features [0, m) are cosines, [m, 2m) sines.
  const int cos_count = std::clamp(num_frequencies_ - first, 0, count);
  internal::ScaledCosInPlace(z.first(cos_count), scale_);
  internal::ScaledSinInPlace(z.subspan(cos_count), scale_);
}

template class BasicFeatureMap<float>;
template class BasicFeatureMap<double>;

}  // namespace rffstream
