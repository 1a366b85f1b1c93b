// File: bench/naive_learner.h
//
// The textbook baseline every benchmark compares against: features with
// std::cos/std::sin one at a time, and a full-matrix Sherman–Morrison RLS in
// Eigen with temporaries, the way it is written in a first implementation.
// Same maths as rffstream::Learner (β = 1), none of the engineering.
#ifndef RFFSTREAM_BENCH_NAIVE_LEARNER_H_
#define RFFSTREAM_BENCH_NAIVE_LEARNER_H_

#include <cmath>
#include <span>

#include "Eigen/Dense"
#include "rffstream/feature_map.h"

namespace rffstream::bench {

class NaiveLearner {
 public:
  // Takes its frequencies from `map` so that both compute the same function.
  NaiveLearner(const FeatureMap& map, double ridge)
      : map_(map),
        projection_(Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>(
            map.projection().data(), map.num_frequencies(), map.input_dimension(),
            Eigen::OuterStride<>(map.input_dimension()))),
        covariance_(Eigen::MatrixXd::Identity(map.num_features(), map.num_features()) / ridge),
        weights_(Eigen::VectorXd::Zero(map.num_features())) {}

  Eigen::VectorXd Features(std::span<const double> x) const {
    const Eigen::VectorXd argument =
        projection_ * Eigen::Map<const Eigen::VectorXd>(x.data(), x.size());
    const int m = map_.num_frequencies();
    Eigen::VectorXd z(map_.num_features());
    for (int i = 0; i < m; ++i) {
      const double a = argument[i] + map_.offsets()[i];
      if (map_.config().map == FeatureMapKind::kPhase) {
        z[i] = map_.scale() * std::cos(a);
      } else {
        z[i] = map_.scale() * std::cos(a);
        z[m + i] = map_.scale() * std::sin(a);
      }
    }
    return z;
  }

  // Returns the a-priori prediction, then learns.
  double Learn(std::span<const double> x, double y) {
    const Eigen::VectorXd z = Features(x);
    const double prior = weights_.dot(z);
    const Eigen::VectorXd u = covariance_ * z;
    const double c = 1.0 + z.dot(u);
    weights_ += u * ((y - prior) / c);
    covariance_ -= (u * u.transpose()) / c;
    return prior;
  }

 private:
  const FeatureMap& map_;
  Eigen::MatrixXd projection_;
  Eigen::MatrixXd covariance_;
  Eigen::VectorXd weights_;
};

}  // namespace rffstream::bench

#endif  // RFFSTREAM_BENCH_NAIVE_LEARNER_H_
