#include "rffstream/target_range.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <utility>

namespace rffstream {

TargetRange::TargetRange(int num_outputs)
    : lows_(static_cast<std::size_t>(num_outputs), std::numeric_limits<double>::infinity()),
      highs_(static_cast<std::size_t>(num_outputs), -std::numeric_limits<double>::infinity()) {}

TargetRange TargetRange::Unbounded(int num_outputs) {
  const auto outputs = static_cast<std::size_t>(num_outputs);
  return FromBounds(std::vector<double>(outputs, -std::numeric_limits<double>::max()),
                    std::vector<double>(outputs, std::numeric_limits<double>::max()));
}

bool TargetRange::unbounded() const {
  return !lows_.empty() && lows_[0] == -std::numeric_limits<double>::max() &&
         highs_[0] == std::numeric_limits<double>::max();
}

void TargetRange::Add(std::span<const double> targets) {
  for (std::size_t output = 0; output < targets.size() && output < lows_.size(); ++output) {
    const double target = targets[output];
    if (target != target) continue;
    lows_[output] = std::min(lows_[output], target);
    highs_[output] = std::max(highs_[output], target);
  }
}

void TargetRange::Clip(std::span<double> answers) const {
  for (std::size_t output = 0; output < answers.size() && output < lows_.size(); ++output) {
    const double width = highs_[output] - lows_[output];
    // Nothing learned yet, one value only, or unbounded (an infinite width).
    if (!(width > 0) || width == std::numeric_limits<double>::infinity()) continue;
    const double low = lows_[output] - width / 2, high = highs_[output] + width / 2;
    answers[output] = std::clamp(answers[output], low, high);
  }
}

void TargetRange::Include(const TargetRange& other) {
  for (std::size_t output = 0; output < lows_.size() && output < other.lows_.size(); ++output) {
    lows_[output] = std::min(lows_[output], other.lows_[output]);
    highs_[output] = std::max(highs_[output], other.highs_[output]);
  }
}

TargetRange TargetRange::FromBounds(std::vector<double> lows, std::vector<double> highs) {
  TargetRange range;
  range.lows_ = std::move(lows);
  range.highs_ = std::move(highs);
  return range;
}

}  // namespace rffstream
