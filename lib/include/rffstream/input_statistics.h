// File: rffstream/input_statistics.h
//
// Per-coordinate running mean and standard deviation of input vectors
// (Welford's algorithm), for standardizing inputs from a warm-up window:
//
//   rffstream::InputStatistics statistics(/*dimension=*/3);
//   for (auto& x : warm_up) statistics.Add(x);
//   config.features.input_offset = statistics.Means();
//   config.features.input_scale = statistics.StandardDeviations();
#ifndef RFFSTREAM_INPUT_STATISTICS_H_
#define RFFSTREAM_INPUT_STATISTICS_H_

#include <cstdint>
#include <span>
#include <vector>

namespace rffstream {

class InputStatistics {
 public:
  explicit InputStatistics(int dimension);

  // Adds x and returns true; or returns false, changing nothing, when x is
  // so large (or infinite) that a mean or a variance would overflow. A NaN
  // coordinate is a missing value: that coordinate's statistics skip it.
  // REQUIRES: x.size() == dimension().
  bool Add(std::span<const double> x);

  int dimension() const { return static_cast<int>(means_.size()); }
  std::int64_t count() const { return count_; }
  std::vector<double> Means() const { return means_; }
  // Means of the values present (0 for a coordinate never present).
  // Population standard deviations; a coordinate without spread (or with
  // fewer than two values present) gets 1, so that dividing by it is harmless.
  std::vector<double> StandardDeviations() const;

 private:
  std::int64_t count_ = 0;
  std::vector<std::int64_t> counts_;  // values present, per coordinate
  std::vector<double> means_;
  std::vector<double> squared_deviations_;
};

}  // namespace rffstream

#endif  // RFFSTREAM_INPUT_STATISTICS_H_
