// File: internal/merge_checks.h
//
// What `rffstream merge` checks before it adds shards up: that they are one
// model (features, bandwidth, standardization, outputs, loss, frequencies,
// input columns; the ridge too without a base), without forgetting, and
// that each still holds its base (no drift restart, no new bandwidth since).
#ifndef RFFSTREAM_INTERNAL_MERGE_CHECKS_H_
#define RFFSTREAM_INTERNAL_MERGE_CHECKS_H_

#include "absl/status/status.h"
#include "rffstream/merge.h"

namespace rffstream::internal {

// InvalidArgument naming the files and the first difference (with how
// shards share their settings when each chose them on its own lines).
// `from_base`: the shards share a base, and may have chosen their ridge again.
template <class Real>
absl::Status CheckMergeable(const NamedCheckpoint<Real>& shard, const NamedCheckpoint<Real>& reference,
                            bool from_base);

// FailedPrecondition when `shard` no longer holds `base` (null: no base).
template <class Real>
absl::Status CheckStartedFromBase(const NamedCheckpoint<Real>& shard,
                                  const NamedCheckpoint<Real>* base);

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_MERGE_CHECKS_H_
