// BasicRls::LearnBlock in the factor form with β = 1: the block's steps
// fused into one sweep over the factor (internal/factor_update.h), which
// reads and writes each column once a block instead of once a sample.
//
// The checks that keep a sample from making the model non-finite
// (FactorSampleIsSafe) need the state the earlier samples leave, so they run
// after the sweep, sample by sample, as the weights are stepped: the same
// checks on the same values as one sample at a time. The sweep writes a
// second factor; if a check fails, the run is undone by keeping the first,
// and learned one sample at a time, which refuses that sample and learns
// the others.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <new>

#include "internal/factor_update.h"
#include "rffstream/rls.h"

namespace rffstream {
namespace {

// A triangle smaller than this stays in L2 from one sample to the next, and
// there single steps, which sum the next group's dot products while they
// update a group, are as fast as the sweep or faster (float32.md, "Blocks":
// 0.85× at D = 256, even at 512, 1.1–1.2× at 1024 in float32).
constexpr std::size_t kFusedTriangleBytes = std::size_t{1} << 20;

// How many of the `count` samples from `first` on have finite features and targets.
template <class Real>
int LeadingFiniteSamples(std::span<const Real> features, std::span<const Real> targets,
                         std::size_t dimension, std::size_t outputs, int first, int count) {
  const auto finite = [](std::span<const Real> values) {
    return std::all_of(values.begin(), values.end(), [](Real value) { return std::isfinite(value); });
  };
  for (int s = 0; s < count; ++s) {
    const auto sample = static_cast<std::size_t>(first + s);
    if (!finite(features.subspan(sample * dimension, dimension)) ||
        !finite(targets.subspan(sample * outputs, outputs))) {
      return s;
    }
  }
  return count;
}

}  // namespace

template <class Real>
int BasicRls<Real>::LearnFactorBlock(std::span<const Real> features, std::span<const Real> targets,
                                     std::span<Real> priors) {
  const auto d = static_cast<std::size_t>(dimension_);
  const auto outputs = static_cast<std::size_t>(num_outputs_);
  const int k = static_cast<int>(targets.size() / outputs);
  const bool fused = fuse_every_block_ || d * d / 2 * sizeof(Real) >= kFusedTriangleBytes;
  int learned = 0;
  for (int first = 0; first < k;) {
    // A run ends where one sample at a time would recompute the bounds, and
    // before a sample holding a number that is not finite, which is refused
    // on its own rather than undoing a run.
    int run = std::min(k - first, SamplesBeforeBoundsRefresh());
    if (fused) run = std::max(1, LeadingFiniteSamples(features, targets, d, outputs, first, run));
    const auto begin = static_cast<std::size_t>(first);
    const auto count = static_cast<std::size_t>(run);
    if (fused && run > 1 && LearnFusedFactorRun(features.subspan(begin * d, count * d),
                                       targets.subspan(begin * outputs, count * outputs),
                                       priors.subspan(begin * outputs, count * outputs))) {
      learned += run;
    } else {
      for (std::size_t s = begin; s < begin + count; ++s) {
        learned += LearnFactorOutputs(features.subspan(s * d, d), targets.subspan(s * outputs, outputs),
                                      priors.subspan(s * outputs, outputs));
      }
    }
    first += run;
  }
  return learned;
}

template <class Real>
bool BasicRls<Real>::LearnFusedFactorRun(std::span<const Real> features,
                                         std::span<const Real> targets, std::span<Real> priors) {
  const auto d = static_cast<std::size_t>(dimension_);
  const auto outputs = static_cast<std::size_t>(num_outputs_);
  const std::size_t k = targets.size() / outputs;
  const std::size_t vectors = k * stride_;
  // The sweep's z and P z (aligned, first), its per-sample scalars, and what
  // undoing the run restores besides the factor.
  block_scratch_.resize(2 * vectors + 3 * k + d + outputs * d + outputs);
  Real* z = block_scratch_.data();
  Real* gains = z + vectors;
  Real* denominators = gains + vectors;
  Real* min_scales = denominators + k;
  Real* inverse_alphas = min_scales + k;
  Real* saved_scales = inverse_alphas + k;
  Real* saved_weights = saved_scales + d;
  Real* saved_noise_sums = saved_weights + outputs * d;
  std::fill(z, denominators, Real{0});
  for (std::size_t s = 0; s < k; ++s) {
    std::copy_n(features.data() + s * d, d, z + s * stride_);
  }
  if (block_factor_.size() != covariance_.size()) {
    // Zero where the sweep never writes, as in covariance_. Without the
    // memory for it, blocks are learned one sample at a time.
    try {
      block_factor_.assign(covariance_.size(), Real{0});
    } catch (const std::bad_alloc&) {
      block_factor_ = AlignedVector<Real>();
      return false;
    }
  }
  std::copy(factor_scales_.begin(), factor_scales_.end(), saved_scales);
  std::copy(weights_.begin(), weights_.end(), saved_weights);
  std::copy(noise_sums_.begin(), noise_sums_.end(), saved_noise_sums);
  const Real saved_noise_weight = noise_weight_;
  const double saved_trace = factor_trace_;
  const double saved_smallest_scale = factor_smallest_scale_;
  const int saved_samples_since_trace = samples_since_trace_;
  const Soundness saved_soundness = soundness_;

  internal::UpdateFactorBlock(internal::FactorBlockUpdateArguments<Real>{
      covariance_.data(), block_factor_.data(), factor_scales_.data(), stride_, dimension_,
      static_cast<int>(k), z, gains, denominators, min_scales, inverse_alphas});
  for (std::size_t s = 0; s < k; ++s) {
    const std::span<const Real> sample_targets = targets.subspan(s * outputs, outputs);
    const std::span<Real> sample_priors = priors.subspan(s * outputs, outputs);
    if (!FactorSampleIsSafe(features.subspan(s * d, d), sample_targets, sample_priors)) {
      // The second factor's entries that the sweep keeps zero may not be
      // now, and another SIMD kernel would not write them all: made anew.
      block_factor_ = AlignedVector<Real>();
      std::copy_n(saved_scales, d, factor_scales_.begin());
      std::copy_n(saved_weights, outputs * d, weights_.begin());
      std::copy_n(saved_noise_sums, outputs, noise_sums_.begin());
      noise_weight_ = saved_noise_weight;
      factor_trace_ = saved_trace;
      factor_smallest_scale_ = saved_smallest_scale;
      samples_since_trace_ = saved_samples_since_trace;
      soundness_ = saved_soundness;
      return false;
    }
    // As StepFactor leaves it after a step of every column.
    factor_smallest_scale_ = min_scales[s];
    if (s + 1 == k) covariance_.swap(block_factor_);  // before the bounds' recomputation
    FinishFactorStep(gains + s * stride_, denominators[s], sample_targets, sample_priors);
  }
  return true;
}

template int BasicRls<float>::LearnFactorBlock(std::span<const float>, std::span<const float>,
                                               std::span<float>);
template bool BasicRls<float>::LearnFusedFactorRun(std::span<const float>, std::span<const float>,
                                                   std::span<float>);
template int BasicRls<double>::LearnFactorBlock(std::span<const double>, std::span<const double>,
                                                std::span<double>);
template bool BasicRls<double>::LearnFusedFactorRun(std::span<const double>,
                                                    std::span<const double>, std::span<double>);

}  // namespace rffstream
