#include "rffstream/rls.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <limits>

#include "absl/strings/str_cat.h"
#include "internal/chunked_prediction.h"
#include "internal/dot_product.h"
#include "internal/simd_kernels.h"
#include "internal/symmetric_update.h"

namespace rffstream {
namespace {

template <class Real>
Real Dot(std::span<const Real> a, std::span<const Real> b) {
  return internal::DotProduct(a.data(), b.data(), a.size());
}

template <class Real>
bool IsFinite(Real value) { return std::isfinite(value); }

// updated = weights + gain · step (in place when they are the same); false
// if any result is NaN or infinite.
template <class Real>
bool UpdateWeights(const Real* weights, const Real* gain, Real step, Real* updated, int count) {
  int all_finite = 1;  // an integer AND, so that the loop vectorizes (NaN compares false)
  for (int i = 0; i < count; ++i) {
    updated[i] = weights[i] + gain[i] * step;
    all_finite &= std::abs(updated[i]) <= std::numeric_limits<Real>::max();
  }
  return all_finite != 0;
}

// How far below 1 rounding may push c = 1 + zᵀPz of a positive definite P.
template <class Real>
constexpr Real kDefinitenessTolerance = Real{1e-4};

}  // namespace

template <class Real>
BasicRls<Real>::BasicRls(int dimension, double ridge, double forgetting, int num_outputs)
    : dimension_(dimension),
      num_outputs_(num_outputs),
      ridge_(ridge),
      factor_form_(UsesSquareRootForm(ridge)),
      stride_(internal::PaddedLength(dimension)),
      forgetting_(static_cast<Real>(forgetting)),
      refresh_strength_(static_cast<Real>(dimension * (1.0 - forgetting) * ridge)),
      covariance_(static_cast<std::size_t>(dimension) * stride_, Real{0}),
      weights_(static_cast<std::size_t>(dimension) * num_outputs, Real{0}),
      next_weights_(weights_.size(), Real{0}),
      gain_(stride_, Real{0}),
      refresh_gain_(stride_, Real{0}),
      product_(stride_, Real{0}),
      features_(stride_, Real{0}),
      row_bounds_(RowParts(dimension)),
      partial_products_((row_bounds_.size() - 2) * stride_, Real{0}),
      noise_sums_(num_outputs, Real{0}) {
  assert(dimension > 0 && ridge > 0 && forgetting > 0 && forgetting <= 1 && num_outputs >= 1);
  // P = I / λ, or L = I and D = I / λ.
  const double diagonal = factor_form_ ? 1.0 : 1.0 / ridge;
  for (int i = 0; i < dimension; ++i) Row(i)[i] = static_cast<Real>(diagonal);
  if (factor_form_) {
    factor_scales_.assign(static_cast<std::size_t>(dimension), static_cast<Real>(1.0 / ridge));
    RecomputeFactorBounds();
  }
}

template <class Real>
Real BasicRls<Real>::Predict(std::span<const Real> z, int output) const {
  return internal::ChunkedPrediction(weights(output).data(), z.data(), z.size());
}

template <class Real>
Real BasicRls<Real>::Learn(std::span<const Real> z, Real target) {
  Real prior = 0;
  LearnOutputs(z, std::span<const Real>(&target, 1), std::span<Real>(&prior, 1));
  return prior;
}

template <class Real>
bool BasicRls<Real>::LearnOutputs(std::span<const Real> z, std::span<const Real> targets,
                                  std::span<Real> priors) {
  assert(static_cast<int>(z.size()) == dimension_);
  assert(static_cast<int>(targets.size()) == num_outputs_);
  if (!SettleInformationFactor()) {
    // Without the memory to make L, D anew, the sample joins Q on its own.
    if (LearnBulkBlock(z, targets, priors)) return true;
    std::fill(priors.begin(), priors.end(), std::numeric_limits<Real>::quiet_NaN());
    return false;
  }
  if (factor_form_) return LearnFactorOutputs(z, targets, priors);
  // Settle the previous sample's updates of P while computing P z.
  std::copy(z.begin(), z.end(), features_.begin());
  PassOverCovariance();
  // A <- β A + z zᵀ. With P the settled matrix: u = P z / β, c = 1 + zᵀu,
  // w += u e / c for each output and P <- P / β - u uᵀ / c (left pending).
  // Everything is computed into scratch (u in product_, the weights in
  // next_weights_) and kept only if the sample leaves the model finite.
  const Real decay = Real{1} / forgetting_;
  for (int i = 0; i < dimension_; ++i) product_[i] *= decay;
  const std::span<const Real> gain = std::span<const Real>(product_).first(dimension_);
  const Real denominator = 1 + Dot<Real>(z, gain);
  // A non-finite z, or one so large that u overflows, makes c non-finite.
  // c >= 1 while P is positive definite; far below, P has broken down.
  // |u|² bounds every entry of the pending u uᵀ / c.
  bool finite = IsFinite(denominator) && denominator >= Real{0.5} && IsFinite(Dot<Real>(gain, gain));
  // c < 1 is impossible for a positive definite P: beyond rounding's reach
  // it means P lost its definiteness (the ridge is too small for this
  // precision). The sample is refused and the engine marked unsound.
  if (IsFinite(denominator) && denominator < Real{1} - kDefinitenessTolerance<Real>) {
    soundness_ = Soundness::kLostDefiniteness;
    finite = false;
  }
  for (int output = 0; output < num_outputs_ && finite; ++output) {
    priors[output] = Predict(z, output);
    const Real error = targets[output] - priors[output];
    const Real step = error / denominator;
    const std::size_t offset = static_cast<std::size_t>(output) * dimension_;
    finite = UpdateWeights(weights_.data() + offset, gain.data(), step,
                           next_weights_.data() + offset, dimension_) &&
             IsFinite(noise_sums_[output] + error * error / denominator);
  }
  Real refresh_denominator = 1;
  if (finite && forgetting_ != Real{1}) {
    finite = RefreshIntoScratch(gain, decay, denominator, refresh_denominator);
  }
  if (!finite) {
    std::fill(priors.begin(), priors.end(), std::numeric_limits<Real>::quiet_NaN());
    // Nothing pending uses it, but it is saved and read: keep it finite.
    std::fill(refresh_gain_.begin(), refresh_gain_.end(), Real{0});
    // This pass only settled P, element by element as the next one would
    // have: the next goes the way it would have gone, so that the samples
    // after a refused one are learned with the same bits as without it.
    next_pass_bottom_up_ = !next_pass_bottom_up_;
    return false;
  }
  gain_.swap(product_);
  weights_.swap(next_weights_);
  RecordErrors(targets.data(), priors.data(), denominator);
  pending_scale_ = decay;
  pending_gain_weight_ = Real{1} / denominator;
  if (forgetting_ == Real{1}) return true;
  next_refreshed_coordinate_ = (next_refreshed_coordinate_ + 1) % dimension_;
  pending_refresh_weight_ = Real{1} / (refresh_strength_ * refresh_denominator);
  return true;
}

template <class Real>
bool BasicRls<Real>::RefreshIntoScratch(std::span<const Real> gain, Real decay, Real denominator,
                                        Real& refresh_denominator) {
  // A += α e_i e_iᵀ, b unchanged: with g = α P' e_i (P' = P / β - u uᵀ / c),
  // w -= g w_i / (1 + g_i) and P' -= g gᵀ / (α (1 + g_i)).
  const int i = next_refreshed_coordinate_;
  const Real u_i_over_c = gain[i] * (Real{1} / denominator);
  for (int j = 0; j < dimension_; ++j) {
    refresh_gain_[j] = refresh_strength_ * (decay * Stored(i, j) - gain[j] * u_i_over_c);
  }
  refresh_denominator = 1 + refresh_gain_[i];
  const std::span<const Real> refresh = std::span<const Real>(refresh_gain_).first(dimension_);
  bool finite = refresh_denominator >= Real{0.5} && IsFinite(Dot<Real>(refresh, refresh));
  for (int output = 0; output < num_outputs_ && finite; ++output) {
    Real* w = next_weights_.data() + static_cast<std::size_t>(output) * dimension_;
    finite = UpdateWeights(w, refresh_gain_.data(), -(w[i] / refresh_denominator), w, dimension_);
  }
  return finite;
}

template <class Real>
void BasicRls<Real>::RecordErrors(const Real* targets, const Real* priors, Real denominator) {
  // The error of a sample has variance σ² c under the model.
  noise_weight_ = forgetting_ * noise_weight_ + 1;
  for (int output = 0; output < num_outputs_; ++output) {
    const Real error = targets[output] - priors[output];
    noise_sums_[output] = forgetting_ * noise_sums_[output] + error * error / denominator;
  }
}

template <class Real>
void BasicRls<Real>::SettlePendingUpdates() {
  // Back-to-back blocks leave nothing pending: no pass over P needed.
  if (pending_scale_ == Real{1} && pending_gain_weight_ == Real{0} &&
      pending_refresh_weight_ == Real{0}) return;
  std::fill(features_.begin(), features_.end(), Real{0});
  PassOverCovariance();
}

template <class Real>
void BasicRls<Real>::PassOverCovariance() {
  const int parts = static_cast<int>(row_bounds_.size()) - 1;
  const Real* refresh = pending_refresh_weight_ != Real{0} ? refresh_gain_.data() : nullptr;
  const auto product_of = [&](int part) {
    return part == 0 ? product_.data()
                     : partial_products_.data() + static_cast<std::size_t>(part - 1) * stride_;
  };
  // A thread's parts in the direction of the pass, so that each part starts
  // on rows the previous pass left in the caches.
  const int threads = pool_ == nullptr ? 1 : std::min(pool_->size(), parts);
  auto run = [&](int thread) {
    const int first = parts * thread / threads, end = parts * (thread + 1) / threads;
    for (int step = 0; step < end - first; ++step) {
      const int part = next_pass_bottom_up_ ? end - 1 - step : first + step;
      internal::UpdateAndMultiplySymmetric(covariance_.data(), dimension_, pending_scale_,
                                           gain_.data(), pending_gain_weight_, refresh,
                                           pending_refresh_weight_, next_pass_bottom_up_,
                                           features_.data(), product_of(part), row_bounds_[part],
                                           row_bounds_[part + 1]);
    }
  };
  if (threads == 1) {
    run(0);
  } else {
    pool_->Run(threads, run);
  }
  // The parts' products added in one order whatever the threads: a part's
  // product is zero below its first row (symmetric_update.h).
  for (int part = 1; part < parts; ++part) {
    const Real* partial = product_of(part);
    for (std::size_t j = static_cast<std::size_t>(row_bounds_[part]); j < stride_; ++j) {
      product_[j] += partial[j];
    }
  }
  next_pass_bottom_up_ = !next_pass_bottom_up_;
  pending_scale_ = 1;
  pending_gain_weight_ = 0;
  pending_refresh_weight_ = 0;
}

template <class Real>
std::vector<int> BasicRls<Real>::RowParts(int dimension) {
  // Parts of P's triangle with equal shares of its D(D+1)/2 entries: rows
  // [0, r) hold about D r - r²/2 of them, so part p starts at
  // r = D (1 - sqrt(1 - p / parts)), rounded to whole blocks of the kernel's
  // rows. About one part per kRowsPerPart rows, at most kMaxParts (each
  // part's own product costs a zeroing and a sum of D entries a sample),
  // and a power of two, which 2, 4, 8 or 16 threads share evenly.
  constexpr int kRowsPerPart = 128;
  constexpr int kMaxParts = 16;
  int parts = 1;
  while (parts * 2 <= std::min(dimension / kRowsPerPart, kMaxParts)) parts *= 2;
  std::vector<int> bounds{0};
  for (int p = 1; p < parts; ++p) {
    const double start = dimension * (1.0 - std::sqrt(1.0 - static_cast<double>(p) / parts));
    bounds.push_back(static_cast<int>(std::lround(start / 4.0)) * 4);
  }
  bounds.push_back(dimension);
  return bounds;
}

template <class Real>
void BasicRls<Real>::SetThreadPool(std::shared_ptr<ThreadPool> pool) {
  // The factor form's column steps run one after another: threads only for bulk blocks.
  const bool split = pool != nullptr && pool->size() > 1 && (factor_form_ || row_bounds_.size() > 2);
  pool_ = split ? std::move(pool) : nullptr;
}

template class BasicRls<float>;
template class BasicRls<double>;

}  // namespace rffstream
