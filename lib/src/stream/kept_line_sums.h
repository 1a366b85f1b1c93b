// Ridge regression's sums over the lines a model kept
// (bandwidth_follower.h), mapped by a candidate feature map: what its GCV
// score and an exact rebuild need. In double whatever the model's
// precision, from the lines themselves.
#ifndef RFFSTREAM_STREAM_KEPT_LINE_SUMS_H_
#define RFFSTREAM_STREAM_KEPT_LINE_SUMS_H_

#include <functional>
#include <span>

#include "Eigen/Dense"
#include "rffstream/checkpoint.h"
#include "rffstream/feature_map.h"
#include "rffstream/thread_pool.h"

namespace rffstream::internal {

// G = Σ z zᵀ (full, symmetric), b = Σ z y (a column of D per output), Σ y²
// and the number of lines.
struct LineSums {
  Eigen::MatrixXd gram;
  Eigen::MatrixXd target_sums;
  Eigen::VectorXd target_squares;
  Eigen::Index lines = 0;
};

// The sums over `state`'s kept lines mapped by `map` (with a column of ones
// for an intercept); the Gram matrix in two fixed parts of the lines, on
// `pool`'s threads when it has two (the same sums with any threads).
template <class Real>
LineSums SumsOverLines(const BasicFeatureMap<Real>& map, bool intercept,
                       const BandwidthFollowState& state, ThreadPool* pool);

// Data-parallel ranks: `sums` become the sums over every rank's lines
// (`sum` adds numbers over the ranks; every rank calls it at once).
void SumOverRanks(const std::function<void(std::span<double>)>& sum, LineSums& sums);

}  // namespace rffstream::internal

#endif  // RFFSTREAM_STREAM_KEPT_LINE_SUMS_H_
