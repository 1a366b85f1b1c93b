// File: internal/factor_block_access.h
//
// For tests: makes a BasicRls sweep its factor once a block whatever its
// size (rls_factor_block.cpp fuses blocks only where the triangle leaves the
// cache), so that the sweep can be checked on small models in every kernel;
// and reads the factor form's state, to compare bit for bit.
#ifndef RFFSTREAM_INTERNAL_FACTOR_BLOCK_ACCESS_H_
#define RFFSTREAM_INTERNAL_FACTOR_BLOCK_ACCESS_H_

#include <vector>

#include "rffstream/rls.h"

namespace rffstream::internal {

class FactorBlockAccess {
 public:
  template <class Real>
  static void FuseEveryBlock(BasicRls<Real>& rls) {
    rls.fuse_every_block_ = true;
  }

  // L as stored (zeros and padding too), D, and the bounds kept beside them,
  // of the settled model (an engine holding Q has them out of date).
  template <class Real>
  static std::vector<double> FactorState(const BasicRls<Real>& engine) {
    const BasicRls<Real> rls = engine.Settled();
    std::vector<double> state(rls.covariance_.begin(), rls.covariance_.end());
    state.insert(state.end(), rls.factor_scales_.begin(), rls.factor_scales_.end());
    state.insert(state.end(), {rls.factor_trace_, rls.factor_smallest_scale_,
                               static_cast<double>(rls.samples_since_trace_),
                               static_cast<double>(rls.soundness_)});
    return state;
  }
};

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_FACTOR_BLOCK_ACCESS_H_
