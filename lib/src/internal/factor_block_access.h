// File: internal/factor_block_access.h
//
// For tests: makes a BasicRls sweep its factor once a block whatever its
// size (rls_factor_block.cpp fuses blocks only where the triangle leaves the
// cache), so that the sweep can be checked on small models in every kernel.
#ifndef RFFSTREAM_INTERNAL_FACTOR_BLOCK_ACCESS_H_
#define RFFSTREAM_INTERNAL_FACTOR_BLOCK_ACCESS_H_

#include "rffstream/rls.h"

namespace rffstream::internal {

class FactorBlockAccess {
 public:
  template <class Real>
  static void FuseEveryBlock(BasicRls<Real>& rls) {
    rls.fuse_every_block_ = true;
  }
};

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_FACTOR_BLOCK_ACCESS_H_
