#include "rffstream/feature_map.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

#include "internal/random.h"
#include "internal/trig.h"

namespace rffstream {
namespace {

struct SampledFrequencies {
  int count = 0;
  std::vector<double> projection;  // count x input_dimension, row-major
  std::vector<double> offsets;     // count
};

// Draws the frequencies in double, in a fixed order: all rows of ω first, then
// the phases, so that the pair and the phase map of one seed share their
// leading frequencies.
SampledFrequencies SampleFrequencies(const FeatureMapConfig& config) {
  SampledFrequencies sampled;
  sampled.count =
      config.map == FeatureMapKind::kPair ? config.num_features / 2 : config.num_features;
  const int d = config.input_dimension;
  internal::RandomEngine engine(config.seed);
  sampled.projection.resize(static_cast<size_t>(sampled.count) * d);
  const double frequency_scale = std::sqrt(2.0 * config.gamma);  // ω ~ N(0, 2γ I)
  for (double& entry : sampled.projection) entry = frequency_scale * engine.NextStandardNormal();
  sampled.offsets.assign(sampled.count, 0.0);
  if (config.map == FeatureMapKind::kPhase) {
    for (double& offset : sampled.offsets) offset = 2.0 * std::numbers::pi * engine.NextUniform();
  }
  return sampled;
}

// ω·((x - μ) / s) + b = (ω / s)·x + (b - (ω / s)·μ): the input transform is
// folded into the projection and the phases, in double before rounding.
void FoldInputTransform(const FeatureMapConfig& config, SampledFrequencies& sampled) {
  const int d = config.input_dimension;
  for (int i = 0; i < sampled.count; ++i) {
    double* row = sampled.projection.data() + static_cast<size_t>(i) * d;
    for (int j = 0; j < d; ++j) {
      if (!config.input_scale.empty()) row[j] /= config.input_scale[j];
      if (!config.input_offset.empty()) sampled.offsets[i] -= row[j] * config.input_offset[j];
    }
  }
}

}  // namespace

template <class Real>
absl::StatusOr<BasicFeatureMap<Real>> BasicFeatureMap<Real>::Create(FeatureMapConfig config) {
  if (absl::Status status = config.Validate(); !status.ok()) return status;
  SampledFrequencies sampled = SampleFrequencies(config);
  FoldInputTransform(config, sampled);
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
void BasicFeatureMap<Real>::Map(std::span<const Real> x, std::span<Real> z) const {
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
                                     std::span<Real> z) const {
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
