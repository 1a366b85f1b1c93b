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
// With forgetting β < 1 every sample carries the clock of its place in the
// stream: a sample at clock t counts β^(T − t) at clock T, with the RLS's
// refresh term α e_i e_iᵀ, i = (t − 1) mod dimension (rls.h), so deltas
// gathered out of order still sum to the closed form of one learner that
// saw the samples in clock order.
//
//   rffstream::InformationDelta delta(learner.row_length(), outputs);
//   delta.Add(row, targets, clock);          // for every sample learned
//   std::span<double> sums = delta.Sums(T);  // ΔA, then Δb, then the count
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

  // `forgetting` β and `refresh` α as the learner's RLS has them (β = 1,
  // α = 0: every sample counts once). REQUIRES: dimension >= 1,
  // outputs >= 1, 0 < β <= 1.
  BasicInformationDelta(int dimension, int outputs, double forgetting = 1.0, double refresh = 0.0);

  // One learned sample: its feature row, its targets and its clock (from 1).
  // REQUIRES: row.size() == dimension, targets.size() == outputs.
  // Allocates nothing.
  void Add(std::span<const Real> row, std::span<const Real> targets, std::int64_t clock = 0);

  // Every sum in one array, weighted at clock `at` (no earlier than any
  // clock added), for adding up across processes: ΔA (dimension ×
  // dimension, row-major, both triangles, the refresh terms included), then
  // Δb (outputs runs of dimension), then the number of samples. The array
  // is the delta's own storage, made ready in place (no second copy of
  // D² numbers): it may be summed into where it is, and stays valid until
  // the next Add or Clear; after one that wrote into it, Clear before Add.
  std::span<double> Sums(std::int64_t at = 0);
  std::int64_t count() const { return count_; }
  // The latest clock added (0: none).
  std::int64_t latest_clock() const { return latest_clock_; }
  // Back to no samples.
  void Clear();

 private:
  void Fold();

  // Decays the sums and the refresh terms from reference_clock_ to `clock`.
  void MoveReference(std::int64_t clock);

  int dimension_;
  int outputs_;
  double forgetting_;
  double refresh_;
  // ΔA's lower triangle, Δb, and the refresh terms' diagonal, weighted at
  // clock reference_clock_; then one place for the count (what Sums()
  // returns, ΔA's upper triangle filled then).
  std::vector<double> sums_;
  std::vector<double> refresh_diagonal_;
  std::int64_t reference_clock_ = 0;
  std::vector<double> rows_;     // up to kBlockRows rows waiting
  std::vector<double> targets_;  // their targets
  std::vector<std::int64_t> clocks_;  // their clocks
  int waiting_ = 0;
  std::int64_t count_ = 0;
  std::int64_t latest_clock_ = 0;
};

using InformationDelta = BasicInformationDelta<double>;
using InformationDeltaF32 = BasicInformationDelta<float>;

extern template class BasicInformationDelta<float>;
extern template class BasicInformationDelta<double>;

}  // namespace rffstream

#endif  // RFFSTREAM_INFORMATION_DELTA_H_
