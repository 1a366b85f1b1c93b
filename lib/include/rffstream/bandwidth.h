// File: rffstream/bandwidth.h
//
// Choosing the kernel bandwidth from data. The median heuristic sets
//   γ = 1 / median_{i<j} ‖x_i - x_j‖²
// over a warm-up window, so that a typical pair of inputs has k ≈ e^-1 for
// the Gaussian kernel. Inputs are first standardized with `offset`/`scale`
// when given (as FeatureMapConfig's input transform would).
//
//   absl::StatusOr<double> gamma = rffstream::MedianHeuristicGamma(rows, 16);
#ifndef RFFSTREAM_BANDWIDTH_H_
#define RFFSTREAM_BANDWIDTH_H_

#include <span>

#include "absl/status/statusor.h"

namespace rffstream {

// At most this many rows are used (the first ones): 200 rows are 19,900 pairs.
inline constexpr int kMedianHeuristicMaxRows = 200;

// `rows` holds n rows of `dimension` values, row-major. Errors: fewer than two
// rows, or every pair at distance zero.
[[nodiscard]] absl::StatusOr<double> MedianHeuristicGamma(std::span<const double> rows,
                                                          int dimension,
                                                          std::span<const double> offset = {},
                                                          std::span<const double> scale = {});

}  // namespace rffstream

#endif  // RFFSTREAM_BANDWIDTH_H_
