// The standardization of the lines a model kept (bandwidth_follower.h).
// After a drift restart the inputs may have moved or changed their spread
// (a sensor recalibrated, a market in another regime), while the model still
// standardizes them with the warm-up window's means and deviations: its
// one kernel width then weighs the inputs otherwise than the window chose.
// The lines kept since the restart give the standardization anew, as the
// window did.
#ifndef RFFSTREAM_STREAM_STANDARDIZATION_ON_LINES_H_
#define RFFSTREAM_STREAM_STANDARDIZATION_ON_LINES_H_

#include <functional>
#include <optional>
#include <span>

#include "rffstream/feature_map_config.h"

namespace rffstream::internal {

// `features` with each input's offset and scale re-estimated on `inputs`
// (rows of `num_inputs` values): the mean and the standard deviation. An
// input whose offset is 0 and scale 1 (a category's bucket, which keeps
// unit length) or that does not vary on these lines keeps its own. With
// `sum`, the moments are summed over data-parallel ranks (every rank calls
// it at once). Nothing when `features` does not standardize or no line is
// kept anywhere.
std::optional<FeatureMapConfig> StandardizedOnLines(
    const FeatureMapConfig& features, std::span<const double> inputs, int num_inputs,
    const std::function<void(std::span<double>)>* sum);

// The largest factor by which an input's scale moved from `from` to `to`
// (at least 1).
double LargestScaleChange(const FeatureMapConfig& from, const FeatureMapConfig& to);

}  // namespace rffstream::internal

#endif  // RFFSTREAM_STREAM_STANDARDIZATION_ON_LINES_H_
