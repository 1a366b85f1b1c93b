// BasicRls in the factor form, float32's and float64's at the smallest
// ridges: P = L D Lᵀ, column j of the unit lower-triangular L in row j of
// the storage (rows j .. D - 1 of the column, its diagonal 1), D in
// factor_scales_, updated by internal/factor_update.h.
//
// A sample is checked before the factors are touched, by bounds that need
// no pass over them: with t = trace(P), c = β + zᵀPz <= β + |z|² t, and the
// step of the weights, P z e / c, is at most |e| sqrt(t / β) / 2 long. A
// sample whose bounds stay far from overflow cannot make the model
// non-finite; one that does not pass is refused with the model untouched
// (NaN priors), as the covariance form refuses it.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "Eigen/Dense"
#include "internal/chunked_prediction.h"
#include "internal/dot_product.h"
#include "internal/factor_update.h"
#include "internal/safe_bounds.h"
#include "rffstream/rls.h"

namespace rffstream {
namespace {

using internal::kSafeBound;
using internal::kSmallestSafeScale;

// trace(P) drifts by rounding when updated incrementally: recomputed exactly this often.
constexpr int kTraceRefresh = 256;

// The checks' O(D) sums and maxima, in double over four independent
// chains: a single chain waits for each addition before the next, which
// made these few passes cost as much as a sizeable part of the factor step.
constexpr std::size_t kChains = 4;

template <class Real>
double SumOfSquares(const Real* values, std::size_t count) {
  double partial[kChains] = {};
  std::size_t i = 0;
  for (; i + kChains <= count; i += kChains) {
    for (std::size_t k = 0; k < kChains; ++k) {
      partial[k] += static_cast<double>(values[i + k]) * values[i + k];
    }
  }
  for (; i < count; ++i) partial[0] += static_cast<double>(values[i]) * values[i];
  return (partial[0] + partial[1]) + (partial[2] + partial[3]);
}

// The largest |value|; NaNs are passed over, as std::max passes them.
template <class Real>
double LargestMagnitude(const Real* values, std::size_t count) {
  double partial[kChains] = {};
  std::size_t i = 0;
  for (; i + kChains <= count; i += kChains) {
    for (std::size_t k = 0; k < kChains; ++k) {
      partial[k] = std::max(partial[k], std::abs(static_cast<double>(values[i + k])));
    }
  }
  for (; i < count; ++i) partial[0] = std::max(partial[0], std::abs(static_cast<double>(values[i])));
  return std::max(std::max(partial[0], partial[1]), std::max(partial[2], partial[3]));
}

}  // namespace

template <class Real>
double BasicRls<Real>::FactorTrace() const {
  double trace = 0;
  for (int j = 0; j < dimension_; ++j) {
    trace += factor_scales_[j] * SumOfSquares(Row(j) + j, static_cast<std::size_t>(dimension_ - j));
  }
  return trace;
}

template <class Real>
void BasicRls<Real>::RecomputeFactorBounds() {
  factor_trace_ = FactorTrace();
  factor_smallest_scale_ = *std::min_element(factor_scales_.begin(), factor_scales_.end());
  samples_since_trace_ = 0;
}

template <class Real>
Real BasicRls<Real>::StepFactor(Real prior, Real scale_factor, int last_column) {
  std::fill(product_.begin(), product_.end(), Real{0});
  Real min_scale = 0;
  const Real denominator = internal::UpdateFactor(
      internal::FactorUpdateArguments<Real>{covariance_.data(), factor_scales_.data(), stride_,
                                            dimension_, features_.data(), prior, scale_factor,
                                            last_column, product_.data()},
      &min_scale);
  // Each d' is d times a ratio of positive sums, at least d / c: the
  // checks before the step keep it from underflowing.
  assert(min_scale > 0);
  factor_smallest_scale_ = last_column == dimension_ - 1
                               ? min_scale
                               : std::min(factor_smallest_scale_, static_cast<double>(min_scale));
  return denominator;
}

template <class Real>
bool BasicRls<Real>::FactorSampleIsSafe(std::span<const Real> z, std::span<const Real> targets,
                                        std::span<Real> priors) {
  const double beta = forgetting_;
  const double trace = 2 * factor_trace_;  // a margin for its rounding
  const double z_norm2 = SumOfSquares(z.data(), z.size());
  const double largest_weight = LargestMagnitude(weights_.data(), weights_.size());
  double largest_error = 0;
  // c bounds how far the step shrinks a d (d' >= d / c), and forgetting's
  // refresh that follows shrinks it by at most 1 + α P_ii.
  const double c_bound = beta + z_norm2 * trace;
  const double shrink = c_bound * (1 + refresh_strength_ * trace / beta);
  bool safe = std::isfinite(z_norm2) && c_bound < kSafeBound<Real> &&
              factor_smallest_scale_ / shrink >= kSmallestSafeScale<Real>;
  // A moderate z that P still makes too large: P itself outgrew float32
  // (forgetting's decay outruns its refresh), not the sample.
  if (!safe && std::isfinite(z_norm2) && z_norm2 < 1e6) {
    soundness_ = Soundness::kOutgrewPrecision;
  }
  for (int output = 0; output < num_outputs_ && safe; ++output) {
    priors[output] = Predict(z, output);
    const double error = static_cast<double>(targets[output]) - priors[output];
    safe = std::isfinite(error) && error * error < kSafeBound<Real> &&
           std::isfinite(static_cast<double>(noise_sums_[output]) + error * error);
    largest_error = std::max(largest_error, std::abs(error));
  }
  const double step = largest_error * std::sqrt(trace / beta) / 2;
  safe = safe && largest_weight + step < kSafeBound<Real>;
  if (safe && forgetting_ != Real{1}) {
    // The refresh that follows: z = sqrt(α) e_i, P then at most P / β, an
    // error of at most sqrt(α) times the largest weight.
    const double weight_bound = largest_weight + step;
    const double refresh_step = std::sqrt(double{refresh_strength_}) * weight_bound *
                                std::sqrt(trace / beta) / 2;
    safe = weight_bound + refresh_step < kSafeBound<Real>;
  }
  return safe;
}

template <class Real>
void BasicRls<Real>::RefreshFactorCoordinate() {
  // A += α e_i e_iᵀ with b unchanged: the step of a sample sqrt(α) e_i
  // whose target is 0. Its columns after i have f_j = 0: skipped.
  const int i = next_refreshed_coordinate_;
  std::fill(features_.begin(), features_.end(), Real{0});
  const Real root_alpha = std::sqrt(refresh_strength_);
  features_[i] = root_alpha;
  const Real refresh_denominator = StepFactor(Real{1}, Real{1}, i);
  features_[i] = 0;
  const double refresh_norm2 =
      SumOfSquares(product_.data(), static_cast<std::size_t>(dimension_)) / refresh_denominator;
  for (int output = 0; output < num_outputs_; ++output) {
    Real* w = weights_.data() + static_cast<std::size_t>(output) * dimension_;
    const Real step_along_gain = -root_alpha * w[i] / refresh_denominator;
    for (int j = 0; j < dimension_; ++j) w[j] += product_[j] * step_along_gain;
  }
  factor_trace_ = std::max(0.0, factor_trace_ - refresh_norm2);
  next_refreshed_coordinate_ = (next_refreshed_coordinate_ + 1) % dimension_;
}

template <class Real>
bool BasicRls<Real>::LearnFactorOutputs(std::span<const Real> z, std::span<const Real> targets,
                                        std::span<Real> priors) {
  if (!FactorSampleIsSafe(z, targets, priors)) {
    std::fill(priors.begin(), priors.end(), std::numeric_limits<Real>::quiet_NaN());
    return false;
  }
  // A <- β A + z zᵀ: with c = β + zᵀPz, P <- (P - P z zᵀ P / c) / β.
  std::copy(z.begin(), z.end(), features_.begin());
  const Real denominator = StepFactor(forgetting_, Real{1} / forgetting_, dimension_ - 1);
  FinishFactorStep(product_.data(), denominator, targets, priors);
  return true;
}

template <class Real>
void BasicRls<Real>::FinishFactorStep(const Real* gain, Real denominator,
                                      std::span<const Real> targets, std::span<const Real> priors) {
  // w += P z e / c.
  const double beta = forgetting_;
  const Real inverse_denominator = Real{1} / denominator;
  const double gain_norm2 = SumOfSquares(gain, static_cast<std::size_t>(dimension_)) / denominator;
  for (int output = 0; output < num_outputs_; ++output) {
    const Real error = targets[output] - priors[output];
    Real* w = weights_.data() + static_cast<std::size_t>(output) * dimension_;
    const Real step_along_gain = error * inverse_denominator;
    for (int i = 0; i < dimension_; ++i) w[i] += gain[i] * step_along_gain;
  }
  // The noise estimate's factor is 1 + zᵀPz / β = c / β.
  RecordErrors(targets.data(), priors.data(), denominator / forgetting_);
  factor_trace_ = std::max(0.0, factor_trace_ - gain_norm2) / beta;
  if (forgetting_ != Real{1}) RefreshFactorCoordinate();
  if (++samples_since_trace_ >= kTraceRefresh) RecomputeFactorBounds();
}

template <class Real>
int BasicRls<Real>::SamplesBeforeBoundsRefresh() const {
  return kTraceRefresh - samples_since_trace_;
}

template <class Real>
Real BasicRls<Real>::FactorQuadraticForm(std::span<const Real> z) const {
  // zᵀPz = Σ_j d_j f_j², f_j = (Lᵀz)_j being column j of L against z.
  double sum = 0;
  for (int j = 0; j < dimension_; ++j) {
    const Real* column = Row(j);
    double f = 0;
    for (int i = j; i < dimension_; ++i) f += static_cast<double>(z[i]) * column[i];
    sum += factor_scales_[j] * f * f;
  }
  return static_cast<Real>(sum);
}

template <class Real>
std::vector<Real> BasicRls<Real>::FactorCovarianceMatrix() const {
  const auto n = static_cast<std::size_t>(dimension_);
  std::vector<Real> full(n * n);
  // P_ik = Σ_j L_ij d_j L_kj over the columns j <= min(i, k).
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = i; k < n; ++k) {
      double sum = 0;
      for (std::size_t j = 0; j <= i; ++j) {
        const Real* column = Row(static_cast<int>(j));
        sum += static_cast<double>(column[i]) * factor_scales_[j] * column[k];
      }
      full[i * n + k] = full[k * n + i] = static_cast<Real>(sum);
    }
  }
  return full;
}

template <class Real>
bool BasicRls<Real>::SetFactorFromCovariance(const std::vector<double>& covariance) {
  using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::Map<const Matrix> p(covariance.data(), dimension_, dimension_);
  const Eigen::LLT<Matrix> factorization(p);
  if (factorization.info() != Eigen::Success) return false;
  const Matrix lower = factorization.matrixL();
  if (!lower.allFinite()) return false;
  // P = S Sᵀ with S = L D^(1/2): L's column j is S's divided by S_jj, d_j = S_jj².
  std::vector<Real> scales(static_cast<std::size_t>(dimension_));
  for (int j = 0; j < dimension_; ++j) {
    scales[j] = static_cast<Real>(lower(j, j) * lower(j, j));
    if (!(scales[j] > 0) || !std::isfinite(scales[j])) return false;  // outside Real's range
  }
  for (int j = 0; j < dimension_; ++j) {
    Real* column = Row(j);
    std::fill(column, column + stride_, Real{0});
    column[j] = 1;
    for (int i = j + 1; i < dimension_; ++i) {
      column[i] = static_cast<Real>(lower(i, j) / lower(j, j));
      if (!std::isfinite(column[i])) return false;
    }
  }
  factor_scales_ = std::move(scales);
  RecomputeFactorBounds();
  return true;
}

template double BasicRls<float>::FactorTrace() const;
template void BasicRls<float>::RecomputeFactorBounds();
template float BasicRls<float>::StepFactor(float, float, int);
template bool BasicRls<float>::LearnFactorOutputs(std::span<const float>, std::span<const float>,
                                                  std::span<float>);
template bool BasicRls<float>::FactorSampleIsSafe(std::span<const float>, std::span<const float>,
                                                  std::span<float>);
template void BasicRls<float>::RefreshFactorCoordinate();
template void BasicRls<float>::FinishFactorStep(const float*, float, std::span<const float>,
                                              std::span<const float>);
template int BasicRls<float>::SamplesBeforeBoundsRefresh() const;
template float BasicRls<float>::FactorQuadraticForm(std::span<const float>) const;
template std::vector<float> BasicRls<float>::FactorCovarianceMatrix() const;
template bool BasicRls<float>::SetFactorFromCovariance(const std::vector<double>&);
template double BasicRls<double>::FactorTrace() const;
template void BasicRls<double>::RecomputeFactorBounds();
template double BasicRls<double>::StepFactor(double, double, int);
template bool BasicRls<double>::LearnFactorOutputs(std::span<const double>, std::span<const double>,
                                                  std::span<double>);
template bool BasicRls<double>::FactorSampleIsSafe(std::span<const double>, std::span<const double>,
                                                  std::span<double>);
template void BasicRls<double>::RefreshFactorCoordinate();
template void BasicRls<double>::FinishFactorStep(const double*, double, std::span<const double>,
                                              std::span<const double>);
template int BasicRls<double>::SamplesBeforeBoundsRefresh() const;
template double BasicRls<double>::FactorQuadraticForm(std::span<const double>) const;
template std::vector<double> BasicRls<double>::FactorCovarianceMatrix() const;
template bool BasicRls<double>::SetFactorFromCovariance(const std::vector<double>&);

}  // namespace rffstream
