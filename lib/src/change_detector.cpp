#include "rffstream/change_detector.h"

#include <algorithm>
#include <cmath>

namespace rffstream {
namespace {

// The weight of the newest value in a mean whose weights halve every
// `half_life` values.
double NewestWeight(double half_life) { return 1.0 - std::exp2(-1.0 / half_life); }

}  // namespace

ChangeDetector::ChangeDetector(const Options& options)
    : options_(options),
      short_weight_(NewestWeight(options.short_half_life)),
      long_weight_(NewestWeight(options.long_half_life)) {}

bool ChangeDetector::Add(double squared_error) {
  if (!std::isfinite(squared_error)) return false;
  ++samples_;
  // Until the means have weight, they are plain means of what came.
  const double count = static_cast<double>(samples_);
  const double long_weight = std::max(long_weight_, 1.0 / count);
  const double short_weight = std::max(short_weight_, 1.0 / count);
  const double clipped =
      samples_ > 1 ? std::min(squared_error, options_.clip_ratio * reference_) : squared_error;
  recent_ += short_weight * (clipped - recent_);
  reference_ += long_weight * (squared_error - reference_);
  if (samples_ < options_.min_samples || !(recent_ > options_.threshold * reference_)) {
    return false;
  }
  last_change_ratio_ = recent_ / reference_;
  recent_ = reference_ = 0;
  samples_ = 0;
  return true;
}

bool ChangeDetector::State::IsValid() const {
  return std::isfinite(recent) && recent >= 0 && std::isfinite(reference) && reference >= 0 &&
         samples >= 0 && std::isfinite(last_change_ratio) && last_change_ratio >= 0;
}

void ChangeDetector::Restore(const State& state) {
  recent_ = state.recent;
  reference_ = state.reference;
  samples_ = state.samples;
  last_change_ratio_ = state.last_change_ratio;
}

}  // namespace rffstream
