// File: rffstream/feature_map.h
//
// Random Fourier features (Rahimi & Recht 2007) for a shift-invariant kernel:
// a fixed map z(x) of length D with z(x)·z(y) ≈ k(x, y). Use it alone to feed
// your own model, or through rffstream::Learner.
//
//   rffstream::FeatureMapConfig config;
//   config.input_dimension = 3;
//   config.num_features = 512;
//   config.gamma = 0.5;
//   absl::StatusOr<rffstream::FeatureMap> map = rffstream::FeatureMap::Create(config);
//   if (!map.ok()) return map.status();
//   std::vector<double> z(map->num_features());     // caller-owned output
//   const double x[3] = {0.1, -2.0, 0.7};
//   map->Map(x, z);                                  // no allocation
#ifndef RFFSTREAM_FEATURE_MAP_H_
#define RFFSTREAM_FEATURE_MAP_H_

#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "rffstream/aligned_vector.h"
#include "rffstream/feature_map_config.h"

namespace rffstream {
namespace internal {
class CheckpointAccess;
}  // namespace internal

// Real is float or double: the precision of the stored frequencies and of the
// arithmetic. The frequencies are sampled in double and rounded, so a float and
// a double map built from one configuration agree to float precision. Inputs
// are double at either precision: an input far from zero (a clock, a price)
// is centred in double before it is rounded (centres()).
//
// Thread safety: const methods may be called from many threads at once.
template <class Real>
class BasicFeatureMap {
 public:
  [[nodiscard]] static absl::StatusOr<BasicFeatureMap> Create(FeatureMapConfig config);

  const FeatureMapConfig& config() const { return config_; }
  int input_dimension() const { return config_.input_dimension; }
  int num_features() const { return config_.num_features; }
  // Distinct frequencies: D for the phase map, D/2 for the pair map.
  int num_frequencies() const { return num_frequencies_; }

  // z = z(x). REQUIRES: x.size() == input_dimension(), z.size() == num_features()
  // (this and every method below fill their output with NaN, reading
  // nothing out of bounds, when a size is wrong). Allocates nothing. A NaN in x is a missing value: it counts as the
  // input's mean (config().input_offset, or 0 when there is none), so after
  // standardization it contributes nothing. Inputs that are exactly zero
  // cost nothing in Map() (one-hot and sparse inputs), but for centred
  // ones (centres()), for which a value equal to the centre does.
  //
  // Every method below reads NaN inputs the same way.
  void Map(std::span<const double> x, std::span<Real> z) const noexcept;

  // A block of samples: `inputs` holds n rows of input_dimension() values,
  // `features` receives n rows of num_features() values (both row-major).
  // Rows share each load of the projection (a register-blocked matrix
  // product, tiled so that the projection stays in cache); sin/cos then run
  // in place over each tile of the output. Each row equals Map() of that row
  // exactly.
  // REQUIRES: inputs.size() == n · input_dimension(), features.size() == n · num_features().
  void MapBlock(std::span<const double> inputs, std::span<Real> features) const noexcept;

  // Features first .. first + z.size() - 1 of z(x), for callers that consume
  // the features in cache-sized pieces: the same bits as Map()'s (with the
  // pair map, each frequency's sine and cosine are computed together, so a
  // range of one half costs the trigonometry of both).
  // REQUIRES: x.size() == input_dimension(), 0 <= first, first + z.size() <= num_features().
  void MapRange(std::span<const double> x, int first, std::span<Real> z) const noexcept;

  // The effective projection (num_frequencies() rows of input_dimension()
  // entries, the input transform folded in), the phases, the centres and
  // the scale: feature i is scale * cos(projection_i · (x - centres) +
  // offset_i) (pair map: cos then sin of the same argument). The centres
  // are 0 but for inputs whose standardization mean is farther from zero
  // than their deviation: those are centred in double, before rounding,
  // rather than folded into the phases, where ω·x would round away the
  // input's digits.
  std::span<const Real> projection() const { return projection_; }
  std::span<const Real> offsets() const { return offsets_; }
  std::span<const double> centres() const { return centres_; }
  Real scale() const { return scale_; }
  // The leverage sampler's weight of each feature (num_features() entries; a
  // pair map's cos and sin of one frequency share it), multiplied into the
  // feature after the scale. Empty for the other samplers.
  std::span<const Real> feature_weights() const { return feature_weights_; }

 private:
  friend class internal::CheckpointAccess;

  BasicFeatureMap(FeatureMapConfig config, int num_frequencies, std::vector<Real> projection,
                  std::vector<Real> offsets, Real scale, std::vector<double> centres);

  // Features for frequencies first .. first + count - 1 into either output.
  void MapFrequencies(std::span<const double> x, int first, int count, Real* cos_out,
                      Real* sin_out) const noexcept;
  // z *= the weights of features first .. first + z.size() - 1, if any.
  void Weigh(int first, std::span<Real> z) const noexcept;

  FeatureMapConfig config_;
  int num_frequencies_;
  std::vector<Real> projection_;
  std::vector<Real> offsets_;
  Real scale_;
  std::vector<double> centres_;
  std::vector<Real> feature_weights_;
  // The SIMD kernel's layout of the same numbers: input-major rows of
  // padded_frequencies_ entries, and the phases, zero-padded alike.
  std::size_t padded_frequencies_;
  AlignedVector<Real> transposed_projection_;
  AlignedVector<Real> padded_offsets_;
  // The value a missing (NaN) input takes: its mean, centred.
  std::vector<Real> missing_fill_;
};

using FeatureMap = BasicFeatureMap<double>;
using FeatureMapF32 = BasicFeatureMap<float>;

extern template class BasicFeatureMap<float>;
extern template class BasicFeatureMap<double>;

}  // namespace rffstream

#endif  // RFFSTREAM_FEATURE_MAP_H_
