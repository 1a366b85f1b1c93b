// BasicRls::LearnBlock: k samples at once, by the first way that fits the
// engine — a bulk QR (rls_bulk.cpp), a sweep over the factors
// (rls_factor_block.cpp), one Woodbury update of P (the covariance form) —
// else, and around a refused sample, one at a time.
#include "internal/simd_kernels.h"
#include "rffstream/rls.h"

namespace rffstream {
namespace {

// The Woodbury block update of the SIMD kernel in use.
bool RunBlockUpdate(const internal::BlockUpdateArguments<float>& block) {
  return internal::ActiveSimdKernelTable().block_update_float(block);
}
bool RunBlockUpdate(const internal::BlockUpdateArguments<double>& block) {
  return internal::ActiveSimdKernelTable().block_update_double(block);
}

}  // namespace

template <class Real>
int BasicRls<Real>::LearnBlock(std::span<const Real> features, std::span<const Real> targets,
                               std::span<Real> priors) {
  const int d = dimension_;
  const int outputs = num_outputs_;
  const int k = static_cast<int>(targets.size()) / outputs;
  if (factor_form_ && forgetting_ == Real{1} && k >= kBulkSamples &&
      LearnBulkBlock(features, targets, priors)) {
    return k;
  }
  // (Without the memory to settle, one sample at a time in bulk.)
  if (SettleInformationFactor() && factor_form_ && forgetting_ == Real{1} && k > 1) {
    return LearnFactorBlock(features, targets, priors);
  }
  if (!factor_form_ && forgetting_ == Real{1} && k > 1) {
    SettlePendingUpdates();
    block_scratch_.resize(static_cast<std::size_t>(d + 1) * k);
    Real* error_variance_factors = block_scratch_.data() + static_cast<std::size_t>(d) * k;
    if (RunBlockUpdate(internal::BlockUpdateArguments<Real>{
            covariance_.data(), stride_, d, k, outputs, features.data(), targets.data(),
            weights_.data(), block_scratch_.data(), priors.data(), error_variance_factors,
            noise_sums_.data(), row_bounds_, pool_.get()})) {
      for (int s = 0; s < k; ++s) {
        RecordErrors(targets.data() + static_cast<std::size_t>(s) * outputs,
                     priors.data() + static_cast<std::size_t>(s) * outputs,
                     error_variance_factors[s]);
      }
      return k;
    }
    // Some sample would make the model non-finite: learn the others one by one.
  }
  int learned = 0;
  for (int s = 0; s < k; ++s) {
    learned += LearnOutputs(features.subspan(static_cast<std::size_t>(s) * d, d),
                            targets.subspan(static_cast<std::size_t>(s) * outputs, outputs),
                            priors.subspan(static_cast<std::size_t>(s) * outputs, outputs));
  }
  return learned;
}

template int BasicRls<float>::LearnBlock(std::span<const float>, std::span<const float>,
                                         std::span<float>);
template int BasicRls<double>::LearnBlock(std::span<const double>, std::span<const double>,
                                          std::span<double>);

}  // namespace rffstream
