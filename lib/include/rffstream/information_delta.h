// File: rffstream/information_delta.h
//
// The information a learner gained from the samples it learned since some
// point, in the additive form of merge.h: ΔA = Σ z zᵀ and, per output,
// Δb = Σ z y. Data-parallel learners sum their deltas (an MPI allreduce) and
// each continues from the total (BasicLearner::SetInformationForm). Exact:
// the sums come from the feature rows, never from differences of inverses.
// Rows wait in blocks of kBlockRows; each block's Gram matrix is one
// symmetric rank-k product, in double whatever the learner's precision (a
// float32 Gram's rounding, summed over many blocks, outweighs a small ridge
// and leaves A indefinite), with the SIMD kernels of this CPU; so a sample
// costs a copy and about D² multiply-adds at matrix-product speed.
//
//   rffstream::InformationDelta delta(learner.row_length(), outputs);
//   delta.Add(row, targets);                 // for every sample learned
//   std::span<double> sums = delta.Sums();   // ΔA, then Δb, then the count
#ifndef RFFSTREAM_INFORMATION_DELTA_H_
#define RFFSTREAM_INFORMATION_DELTA_H_

#include <cstdint>
#include <span>
#include <vector>

namespace rffstream {

template <class Real>
class BasicInformationDelta {
 public:
  static constexpr int kBlockRows = 256;

  // REQUIRES: dimension >= 1, outputs >= 1.
  BasicInformationDelta(int dimension, int outputs);

  // One learned sample: its feature row and its targets. REQUIRES:
  // row.size() == dimension, targets.size() == outputs. Allocates nothing.
  void Add(std::span<const Real> row, std::span<const Real> targets);

  // Every sum in one array, for adding up across processes: ΔA
  // (dimension × dimension, row-major, both triangles), then Δb
  // (outputs runs of dimension), then the number of samples.
  std::span<double> Sums();
  std::int64_t count() const { return count_; }
  // Back to no samples.
  void Clear();

 private:
  void Fold();

  int dimension_;
  int outputs_;
  std::vector<double> sums_;
  std::vector<double> rows_;     // up to kBlockRows rows waiting
  std::vector<double> targets_;  // their targets
  std::vector<double> gram_;     // scratch: one block's Gram matrix
  int waiting_ = 0;
  std::int64_t count_ = 0;
};

using InformationDelta = BasicInformationDelta<double>;
using InformationDeltaF32 = BasicInformationDelta<float>;

extern template class BasicInformationDelta<float>;
extern template class BasicInformationDelta<double>;

}  // namespace rffstream

#endif  // RFFSTREAM_INFORMATION_DELTA_H_
