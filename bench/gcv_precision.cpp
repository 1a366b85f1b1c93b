// The ridge's later choices in float32 against float64
// (rffstream/stream/ridge_follower.h): both precisions learn one Friedman #1
// stream (16 inputs, noise σ 1), then each candidate ridge is scored by
// generalized cross-validation from each model's own information form. A
// row per (n, D, starting ridge): float64's choice and score, float32's
// choice among the candidates its floor allows, float64's score at that
// choice (the ratio is what the floor costs), and float32's unfloored
// choice (where it goes without the floor).
//   build/bench/gcv_precision [SAMPLES...]   (default 1024 4096 16384)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "rffstream/learner.h"
#include "rffstream/ridge_by_gcv.h"
#include "rffstream/stream/ridge_follower.h"

namespace {

using rffstream::BasicLearner;
using rffstream::RidgeChoice;

struct Form {
  std::vector<double> gram;  // A − λI
  std::vector<double> target_sums;
};

template <class Real>
Form GramOf(const BasicLearner<Real>& learner, double ridge) {
  auto form = learner.rls().ToInformationForm();
  if (!form.ok()) std::abort();
  const auto n = static_cast<std::size_t>(learner.rls().dimension());
  for (std::size_t i = 0; i < n; ++i) form->information[i * n + i] -= ridge;
  return {std::move(form->information), std::move(form->target_sums)};
}

RidgeChoice Choose(const Form& form, double squares, int samples, double ridge,
                   const std::vector<double>& candidates) {
  const std::vector<double> sums = {squares};
  auto choice = rffstream::ChooseRidgeByGcv(form.gram, form.target_sums, sums, samples, ridge,
                                            candidates);
  if (!choice.ok()) std::abort();
  return *choice;
}

void Row(int samples, int features, double ridge) {
  rffstream::LearnerConfig config;
  config.features.input_dimension = 16;
  config.features.num_features = features;
  config.features.gamma = 0.015;
  config.features.seed = 3;
  config.ridge = ridge;
  auto wide = BasicLearner<double>::Create(config);
  auto single = BasicLearner<float>::Create(config);
  if (!wide.ok() || !single.ok()) std::abort();
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::normal_distribution<double> noise(0, 1);
  std::vector<double> x(16);
  double squares = 0;
  for (int t = 0; t < samples; ++t) {
    for (double& value : x) value = uniform(random);
    const double y = 10 * std::sin(M_PI * x[0] * x[1]) + 20 * (x[2] - 0.5) * (x[2] - 0.5) +
                     10 * x[3] + 5 * x[4] + noise(random);
    squares += y * y;
    (void)wide->Learn(x, y);
    (void)single->Learn(x, static_cast<float>(y));
  }
  const Form wide_form = GramOf(*wide, ridge), single_form = GramOf(*single, ridge);
  const std::vector<double> all = rffstream::RidgeCandidates();
  const auto dimension = static_cast<std::size_t>(wide->rls().dimension());
  const RidgeChoice best = Choose(wide_form, squares, samples, ridge, all);
  const RidgeChoice floored =
      Choose(single_form, squares, samples, ridge,
             rffstream::RidgeFollower<float>::ReliableCandidates(ridge, dimension));
  const RidgeChoice unfloored = Choose(single_form, squares, samples, ridge, all);
  const RidgeChoice there = Choose(wide_form, squares, samples, ridge, {floored.ridge});
  std::printf("%6d %5d %7.0e | %8.2e %7.4f | %8.2e %7.4f %7.4f %6.3f | %8.2e %7.4f\n", samples,
              features, ridge, best.ridge, best.score, floored.ridge, floored.score, there.score,
              there.score / best.score, unfloored.ridge, unfloored.score);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sample_counts;
  for (int i = 1; i < argc; ++i) sample_counts.push_back(std::atoi(argv[i]));
  if (sample_counts.empty()) sample_counts = {1024, 4096, 16384};
  std::printf("%6s %5s %7s | %17s | %37s | %17s\n", "n", "D", "ridge", "float64 choice",
              "float32 floored (own, float64's there, ratio)", "float32 unfloored");
  for (const int features : {256, 1024}) {
    for (const int samples : sample_counts) {
      for (const double ridge : {1.0, 1e-1, 1e-2, 1e-3, 1e-4}) Row(samples, features, ridge);
    }
  }
}
