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
std::vector<double> State(const BasicRls<Real>& rls) {
  std::vector<double> state = internal::FactorBlockAccess::FactorState(rls);
  for (int output = 0; output < rls.num_outputs(); ++output) {
    state.insert(state.end(), rls.weights(output).begin(), rls.weights(output).end());
    state.push_back(rls.NoiseVarianceEstimate(output));
  }
  return state;
}

// Refused one at a time: a feature that is not finite, or a target so large
// that its error's square would leave the range (finite, so that the block
// sweeps the sample and must undo it).
enum class Spoiled { kFeature, kTarget };

template <class Real>
std::vector<Real> Sample(int t, int dimension) {
  const std::vector<double> z = NarrowFeatures(t, dimension);
  return std::vector<Real>(z.begin(), z.end());
}

// Learns `samples` samples, two targets each, one at a time and in blocks of
// `block`, with `spoiled` samples made unlearnable as `how`; CHECKs that both
// give the same priors and end in the same state.
template <class Real>
void CheckBlocksEqualSingleSteps(int dimension, int block, int samples, const std::vector<int>& spoiled,
                                 Spoiled how = Spoiled::kFeature) {
  constexpr int kOutputs = 2;
  const double ridge = 1e-8;  // the factor form in float64 too
  BasicRls<Real> single(dimension, ridge, 1.0, kOutputs), blocked(dimension, ridge, 1.0, kOutputs);
  internal::FactorBlockAccess::FuseEveryBlock(blocked);
  std::vector<Real> features, targets, single_priors, blocked_priors;
  int learned = 0, blocked_learned = 0;
  for (int t = 0; t < samples; ++t) {
    std::vector<Real> z = Sample<Real>(t, dimension);
    Real sample_targets[kOutputs] = {static_cast<Real>(NarrowTarget(t)), static_cast<Real>(-NarrowTarget(t + 5))};
    for (int spoiled_sample : spoiled) {
      if (t != spoiled_sample) continue;
      if (how == Spoiled::kFeature) z[dimension / 2] = std::numeric_limits<Real>::infinity();
      if (how == Spoiled::kTarget) sample_targets[1] = std::sqrt(std::numeric_limits<Real>::max());
    }
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
    for (const Spoiled how : {Spoiled::kFeature, Spoiled::kTarget}) {
      INFO("D = " << dimension << (how == Spoiled::kFeature ? ", an infinite feature" : ", a huge target"));
      CheckBlocksEqualSingleSteps<TestType>(dimension, 64, 400, {70, 71, 128, 255}, how);
    }
  }
}

TEST_CASE("A block undone in one SIMD kernel leaves nothing that another kernel's blocks learn",
          "[rls][factor][block][simd]") {
  // The best kernel and the next, in turn: the undone sweep left numbers
  // that are not finite where the wider one writes, and the narrower one
  // writes fewer entries of the second factor before the two swap.
  const auto tables = internal::SupportedSimdKernelTables();
  if (tables.size() < 2) return;
  constexpr int kDimension = 37, kBlock = 16;
  RlsF32 single(kDimension, 1e-2, 1.0), blocked(kDimension, 1e-2, 1.0);
  internal::FactorBlockAccess::FuseEveryBlock(blocked);
  for (int b = 0; b < 6; ++b) {
    testing::ForcedSimdKernel forced(tables[b % 2]->name);
    std::vector<float> features, targets(kBlock), priors(kBlock);
    for (int s = 0; s < kBlock; ++s) {
      const int t = b * kBlock + s;
      std::vector<float> z = Sample<float>(t, kDimension);
      targets[s] = static_cast<float>(NarrowTarget(t));
      // Block 0's sample 5 is finite but makes the sweep's scalars overflow:
      // refused after it, the block undone.
      if (b == 0 && s == 5) z[3] = 1e30f;
      single.LearnOutputs(z, std::span<const float>(&targets[s], 1), std::span<float>(&priors[s], 1));
      features.insert(features.end(), z.begin(), z.end());
    }
    blocked.LearnBlock(features, targets, priors);
  }
  CHECK(State(blocked) == State(single));
}

}  // namespace
}  // namespace rffstream
