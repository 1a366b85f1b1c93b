#include "rffstream/feature_map.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include "internal/frequency_sampler.h"
#include "internal/simd_kernels.h"
#include "internal/padded_length.h"

namespace rffstream {

template <class Real>
absl::StatusOr<BasicFeatureMap<Real>> BasicFeatureMap<Real>::Create(FeatureMapConfig config) {
  if (absl::Status status = config.Validate(); !status.ok()) return status;
  // Choose the SIMD kernel now, so that no lazy initialization lands on the
  // first Map() of a latency-sensitive caller.
  internal::ActiveSimdKernelTable();
  internal::SampledFrequencies sampled = internal::SampleFrequencies(config);
  std::vector<double> centres = internal::InputCentres(config);
  internal::FoldInputTransform(config, centres, sampled);
  const double scale = config.map == FeatureMapKind::kPair
                           ? std::sqrt(1.0 / sampled.count)
                           : std::sqrt(2.0 / config.num_features);
  // The projection can be large (D · d numbers, 10⁵ inputs: 200 MB): it is
  // moved, or converted and the double copy released, so that building the
  // map holds two copies at most (the double one and the converted one, or
  // the row-major and the transposed one), as LearnerConfig::MemoryBytes
  // counts.
  std::vector<Real> projection;
  if constexpr (std::is_same_v<Real, double>) {
    projection = std::move(sampled.projection);
  } else {
    projection.assign(sampled.projection.begin(), sampled.projection.end());
    std::vector<double>().swap(sampled.projection);
  }
  return BasicFeatureMap(std::move(config), sampled.count, std::move(projection),
                         std::vector<Real>(sampled.offsets.begin(), sampled.offsets.end()),
                         static_cast<Real>(scale), std::move(centres));
}

template <class Real>
BasicFeatureMap<Real>::BasicFeatureMap(FeatureMapConfig config, int num_frequencies,
                                       std::vector<Real> projection, std::vector<Real> offsets,
                                       Real scale, std::vector<double> centres)
    : config_(std::move(config)),
      num_frequencies_(num_frequencies),
      projection_(std::move(projection)),
      offsets_(std::move(offsets)),
      scale_(scale),
      centres_(std::move(centres)),
      padded_frequencies_(internal::PaddedLength(num_frequencies)),
      transposed_projection_(padded_frequencies_ * config_.input_dimension, Real{0}),
      padded_offsets_(padded_frequencies_, Real{0}),
      missing_fill_(static_cast<std::size_t>(config_.input_dimension), Real{0}) {
  // A missing value reads as the mean: what is left of it once centred.
  for (std::size_t j = 0; j < config_.input_offset.size(); ++j) {
    missing_fill_[j] = static_cast<Real>(config_.input_offset[j] - centres_[j]);
  }
  const std::vector<double>& weights = config_.selection.weights;
  for (int copy = 0; copy < (config_.map == FeatureMapKind::kPair ? 2 : 1) && !weights.empty(); ++copy) {
    feature_weights_.insert(feature_weights_.end(), weights.begin(), weights.end());
  }
  const int d = config_.input_dimension;
  for (int i = 0; i < num_frequencies_; ++i) {
    for (int j = 0; j < d; ++j) {
      transposed_projection_[j * padded_frequencies_ + i] = projection_[i * d + j];
    }
  }
  std::copy(offsets_.begin(), offsets_.end(), padded_offsets_.begin());
}

template <class Real>
void BasicFeatureMap<Real>::MapFrequencies(std::span<const double> x, int first, int count,
                                           Real* cos_out, Real* sin_out) const noexcept {
  const internal::FeatureMapKernelArguments<Real> arguments{
      transposed_projection_.data(), padded_offsets_.data(), padded_frequencies_,
      config_.input_dimension, scale_, centres_.data(), missing_fill_.data()};
  const internal::SimdKernelTable& kernels = internal::ActiveSimdKernelTable();
  if constexpr (std::is_same_v<Real, float>) {
    kernels.map_float(arguments, x.data(), first, count, cos_out, sin_out);
  } else {
    kernels.map_double(arguments, x.data(), first, count, cos_out, sin_out);
  }
}

template <class Real>
void BasicFeatureMap<Real>::Weigh(int first, std::span<Real> z) const noexcept {
  if (feature_weights_.empty()) return;
  const Real* weights = feature_weights_.data() + first;
  for (std::size_t i = 0; i < z.size(); ++i) z[i] *= weights[i];
}

template <class Real>
void BasicFeatureMap<Real>::Map(std::span<const double> x, std::span<Real> z) const noexcept {
  if (x.size() != static_cast<std::size_t>(config_.input_dimension) ||
      z.size() != static_cast<std::size_t>(config_.num_features)) {
    std::fill(z.begin(), z.end(), std::numeric_limits<Real>::quiet_NaN());
    return;
  }
  const int m = num_frequencies_;
  if (config_.map == FeatureMapKind::kPhase) {
    MapFrequencies(x, 0, m, z.data(), nullptr);
  } else {
    MapFrequencies(x, 0, m, z.data(), z.data() + m);
  }
  Weigh(0, z);
}

template <class Real>
void BasicFeatureMap<Real>::MapBlock(std::span<const double> inputs,
                                     std::span<Real> features) const noexcept {
  const std::size_t d = static_cast<std::size_t>(config_.input_dimension);
  if (inputs.size() % d != 0 ||
      features.size() != inputs.size() / d * static_cast<std::size_t>(config_.num_features)) {
    std::fill(features.begin(), features.end(), std::numeric_limits<Real>::quiet_NaN());
    return;
  }
  const int rows = static_cast<int>(inputs.size() / d);
  const internal::FeatureMapKernelArguments<Real> arguments{
      transposed_projection_.data(), padded_offsets_.data(), padded_frequencies_,
      config_.input_dimension, scale_, centres_.data(), missing_fill_.data()};
  Real* const sines =
      config_.map == FeatureMapKind::kPair ? features.data() + num_frequencies_ : nullptr;
  const internal::SimdKernelTable& kernels = internal::ActiveSimdKernelTable();
  if constexpr (std::is_same_v<Real, float>) {
    kernels.map_block_float(arguments, inputs.data(), rows, num_frequencies_, features.data(),
                            sines, static_cast<std::size_t>(config_.num_features));
  } else {
    kernels.map_block_double(arguments, inputs.data(), rows, num_frequencies_, features.data(),
                             sines, static_cast<std::size_t>(config_.num_features));
  }
  const auto width = static_cast<std::size_t>(config_.num_features);
  for (int row = 0; row < rows && !feature_weights_.empty(); ++row) {
    Weigh(0, features.subspan(static_cast<std::size_t>(row) * width, width));
  }
}

template <class Real>
void BasicFeatureMap<Real>::MapRange(std::span<const double> x, int first,
                                     std::span<Real> z) const noexcept {
  if (x.size() != static_cast<std::size_t>(config_.input_dimension) || first < 0 ||
      static_cast<std::size_t>(first) + z.size() > static_cast<std::size_t>(config_.num_features)) {
    std::fill(z.begin(), z.end(), std::numeric_limits<Real>::quiet_NaN());
    return;
  }
  const int count = static_cast<int>(z.size());
  if (config_.map == FeatureMapKind::kPhase) {
    MapFrequencies(x, first, count, z.data(), nullptr);
    Weigh(first, z);
    return;
  }
  // Pair map: features [0, m) are cosines, [m, 2m) sines of the same
  // frequencies. Both come from the sin+cos kernel, as in Map(), so that a
  // range holds Map()'s bits (the cos-only and sin-only kernels round
  // differently); the half not asked for goes to a scratch buffer, in pieces.
  constexpr int kPiece = 64;
  std::array<Real, kPiece> unused;
  const int m = num_frequencies_;
  const int cos_count = std::clamp(m - first, 0, count);
  for (int done = 0; done < cos_count; done += kPiece) {
    const int piece = std::min(kPiece, cos_count - done);
    MapFrequencies(x, first + done, piece, z.data() + done, unused.data());
  }
  const int sin_first = first + cos_count - m;
  for (int done = 0; done < count - cos_count; done += kPiece) {
    const int piece = std::min(kPiece, count - cos_count - done);
    MapFrequencies(x, sin_first + done, piece, unused.data(), z.data() + cos_count + done);
  }
  Weigh(first, z);
}

template class BasicFeatureMap<float>;
template class BasicFeatureMap<double>;

}  // namespace rffstream
