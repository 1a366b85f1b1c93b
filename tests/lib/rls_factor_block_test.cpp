// Blocks in the factor form (rls_factor_block.cpp, internal/factor_update.h's
// UpdateFactorBlock) against the reference they promise to equal bit for
// bit: the same samples learned one at a time. In every SIMD kernel, in
// float32 and float64, with dimensions that fill whole column groups and
// ones that leave a tail, with runs cut where the bounds are recomputed,
// several outputs, and refused samples inside a block.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "internal/factor_block_access.h"
#include "internal/simd_kernels.h"
#include "rffstream/rls.h"
#include "tests/forced_simd_kernel.h"
#include "tests/narrow_stream.h"

namespace rffstream {
namespace {

using testing::NarrowFeatures;
using testing::NarrowTarget;

// Everything a model holds that a sample changes, to compare bit for bit.
template <class Real>
std::vector<Real> State(const BasicRls<Real>& rls) {
  std::vector<Real> state = rls.CovarianceMatrix();
  for (int output = 0; output < rls.num_outputs(); ++output) {
    state.insert(state.end(), rls.weights(output).begin(), rls.weights(output).end());
    state.push_back(rls.NoiseVarianceEstimate(output));
  }
  return state;
}

template <class Real>
std::vector<Real> Sample(int t, int dimension) {
  const std::vector<double> z = NarrowFeatures(t, dimension);
  return std::vector<Real>(z.begin(), z.end());
}

// Learns `samples` samples, two targets each, one at a time and in blocks of
// `block`, with `spoiled` samples made unlearnable; CHECKs that both give the
// same priors and end in the same state.
template <class Real>
void CheckBlocksEqualSingleSteps(int dimension, int block, int samples, const std::vector<int>& spoiled) {
  constexpr int kOutputs = 2;
  const double ridge = 1e-8;  // the factor form in float64 too
  BasicRls<Real> single(dimension, ridge, 1.0, kOutputs), blocked(dimension, ridge, 1.0, kOutputs);
  internal::FactorBlockAccess::FuseEveryBlock(blocked);
  std::vector<Real> features, targets, single_priors, blocked_priors;
  int learned = 0, blocked_learned = 0;
  for (int t = 0; t < samples; ++t) {
    std::vector<Real> z = Sample<Real>(t, dimension);
    for (int spoiled_sample : spoiled) {
      if (t == spoiled_sample) z[dimension / 2] = std::numeric_limits<Real>::infinity();
    }
    const Real sample_targets[kOutputs] = {static_cast<Real>(NarrowTarget(t)), static_cast<Real>(-NarrowTarget(t + 5))};
    Real priors[kOutputs];
    learned += single.LearnOutputs(z, sample_targets, priors);
    single_priors.insert(single_priors.end(), priors, priors + kOutputs);
    features.insert(features.end(), z.begin(), z.end());
    targets.insert(targets.end(), sample_targets, sample_targets + kOutputs);
    if (t % block == block - 1 || t == samples - 1) {
      std::vector<Real> block_priors(targets.size());
      blocked_learned += blocked.LearnBlock(features, targets, block_priors);
      blocked_priors.insert(blocked_priors.end(), block_priors.begin(), block_priors.end());
      features.clear();
      targets.clear();
    }
  }
  CHECK(learned == samples - static_cast<int>(spoiled.size()));
  CHECK(blocked_learned == learned);
  REQUIRE(blocked_priors.size() == single_priors.size());
  int differing = 0;
  for (std::size_t i = 0; i < single_priors.size(); ++i) {
    const bool both_refused = std::isnan(single_priors[i]) && std::isnan(blocked_priors[i]);
    differing += !both_refused && single_priors[i] != blocked_priors[i];
  }
  CHECK(differing == 0);
  CHECK(State(blocked) == State(single));
}

TEMPLATE_TEST_CASE("Factor-form blocks learn bit for bit what single samples learn, in every SIMD kernel",
                   "[rls][factor][block][simd]", float, double) {
  for (const internal::SimdKernelTable* table : internal::SupportedSimdKernelTables()) {
    testing::ForcedSimdKernel forced(table->name);
    for (const int dimension : {3, 37, 64}) {
      for (const int block : {2, 48, 64}) {
        INFO(table->name << ", D = " << dimension << ", blocks of " << block);
        // 700 samples cross the bounds' recomputation every 256 (runs cut there).
        CheckBlocksEqualSingleSteps<TestType>(dimension, block, 700, {});
      }
    }
  }
}

TEMPLATE_TEST_CASE("A factor-form block with unlearnable samples refuses them and learns the rest",
                   "[rls][factor][block][errors]", float, double) {
  // Samples 70 and 71 in one block, 128 at a block's start, 255 at its end:
  // each run that holds one is undone and learned one sample at a time.
  for (const int dimension : {5, 37}) {
    INFO("D = " << dimension);
    CheckBlocksEqualSingleSteps<TestType>(dimension, 64, 400, {70, 71, 128, 255});
  }
}

}  // namespace
}  // namespace rffstream
