// File: rffstream/merge.h
//
// Exact merging of models learned on disjoint parts of a stream. Ridge
// regression's sufficient statistics add up: a model that learned the
// samples S from the start state A₀ (λI, or a common base model) holds
// A = A₀ + Σ_S z zᵀ and b = b₀ + Σ_S z y, so shards that started from the
// same state merge as
//
//   A = A₀ + Σ_i (A_i - A₀),   b = b₀ + Σ_i (b_i - b₀),   w = A⁻¹ b,
//
// the model that learned all their samples (β = 1), up to rounding. Each
// A_i comes from the shard's P by a Cholesky factorization (O(D³) once per
// merge, nothing on the per-sample path). Counters and running metrics merge
// the same way. With the hinge loss each class's engine merges alike: the
// result holds the union of the shards' updates.
//
//   std::vector<rffstream::NamedCheckpoint<double>> shards = {{"a.rff", &a}, {"b.rff", &b}};
//   absl::StatusOr<rffstream::Checkpoint> merged = rffstream::MergeCheckpoints<double>(shards);
#ifndef RFFSTREAM_MERGE_H_
#define RFFSTREAM_MERGE_H_

#include <span>
#include <string>

#include "absl/status/statusor.h"
#include "rffstream/checkpoint.h"

namespace rffstream {

template <class Real>
struct NamedCheckpoint {
  std::string name;  // for messages: a file name, a shard's number
  const BasicCheckpoint<Real>* checkpoint = nullptr;
};

// Merges `shards`, all started from `base` (nullptr: from an untrained model
// of their configuration). InvalidArgument, naming the checkpoint and the
// field, when they differ in configuration, features or task, when β < 1
// (no exact merge without a common clock), or when a shard has fewer samples
// than the base; FailedPrecondition when a P cannot be inverted.
template <class Real>
[[nodiscard]] absl::StatusOr<BasicCheckpoint<Real>> MergeCheckpoints(
    std::span<const NamedCheckpoint<Real>> shards, const NamedCheckpoint<Real>* base = nullptr);

}  // namespace rffstream

#endif  // RFFSTREAM_MERGE_H_
