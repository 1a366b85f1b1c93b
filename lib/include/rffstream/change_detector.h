// File: rffstream/change_detector.h
//
// Tells when a stream's a-priori errors rise to a new level and stay there:
// the sign that what the model learned no longer holds (drift). Two
// exponentially weighted means of the squared error, a recent one (half-life
// of short_half_life samples) and a reference (long_half_life), are
// compared: a change is the recent level above `threshold` times the
// reference, once min_samples errors have come since the last change. Each
// error enters the recent mean clipped at clip_ratio times the reference, so
// that one outlier cannot raise an alarm; a lasting shift does.
//
//   rffstream::ChangeDetector detector;
//   for (...) {
//     const double prior = learner.Learn(x, y);
//     if (detector.Add((y - prior) * (y - prior))) { /* the stream changed */ }
//   }
//
// O(1) time and memory a sample.
#ifndef RFFSTREAM_CHANGE_DETECTOR_H_
#define RFFSTREAM_CHANGE_DETECTOR_H_

#include <cstdint>

namespace rffstream {

class ChangeDetector {
 public:
  struct Options {
    double short_half_life = 50;
    double long_half_life = 2000;
    double threshold = 2;
    double clip_ratio = 10;
    std::int64_t min_samples = 300;
  };

  ChangeDetector() : ChangeDetector(Options{}) {}
  explicit ChangeDetector(const Options& options);

  // Adds one squared error; true when it completes a change, after which
  // the detector starts over. A non-finite error is ignored.
  bool Add(double squared_error);

  const Options& options() const { return options_; }
  // The recent level over the reference at the last change (its size).
  double last_change_ratio() const { return last_change_ratio_; }
  std::int64_t samples_since_change() const { return samples_; }

  // What it has seen since its last change, for checkpoints.
  struct State {
    double recent = 0;
    double reference = 0;
    std::int64_t samples = 0;
    double last_change_ratio = 0;
    bool operator==(const State&) const = default;
    // Whether Add() could have left it so: finite, non-negative levels.
    bool IsValid() const;
  };
  State state() const { return {recent_, reference_, samples_, last_change_ratio_}; }
  // REQUIRES: state.IsValid().
  void Restore(const State& state);

 private:
  Options options_;
  double short_weight_;
  double long_weight_;
  double recent_ = 0;
  double reference_ = 0;
  std::int64_t samples_ = 0;
  double last_change_ratio_ = 0;
};

}  // namespace rffstream

#endif  // RFFSTREAM_CHANGE_DETECTOR_H_
