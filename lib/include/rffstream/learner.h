// File: rffstream/learner.h
//
// The streaming learner: random Fourier features followed by recursive least
// squares, with progressive-validation semantics. Predict() never changes the
// model; Learn() returns the prediction it made *before* learning from the
// sample, so averaging Learn()'s errors over a stream is an honest estimate of
// out-of-sample error.
//
//   rffstream::LearnerConfig config;
//   config.features.input_dimension = 2;
//   config.features.num_features = 256;
//   config.features.gamma = 0.5;
//   absl::StatusOr<rffstream::Learner> learner = rffstream::Learner::Create(config);
//   if (!learner.ok()) return learner.status();
//   for (const auto& [x, y] : stream) {
//     double prior = learner->Learn(x, y);  // x: std::span<const double>
//   }
//   double prediction = learner->Predict(x_new);
//
// Hot path: after Create(), Predict() and Learn() allocate nothing, take no
// locks and throw nothing (Predict() uses up to 16 KiB of stack). One
// exception: the first Learn() after a bulk block (LearnBlock) turns its
// information factor back into the one-sample factor, once: O(D³), and it
// allocates. A latency-bound host learns in bulk or one at a time, not both. Every
// prediction — Predict(), the row calls, the a-priori predictions Learn()
// returns — is the same arithmetic, so all give the same bits. Their spans
// must have the right sizes (see the REQUIRES lines): inputs, rows,
// targets, priors and predictions of another size are refused like a bad
// sample (NaN outputs, never learned, nothing read or written out of
// bounds; Learn() on a model of several outputs is such a refusal), and a
// debug build of the library (asserts on) stops at an assertion there. A NaN input is a missing value, read as that
// input's mean (FeatureMap::Map). A sample that would make
// the model non-finite (an infinite value, a NaN target, or numbers so large that the
// update overflows) is never learned: the model stays as it was and the
// learning call says so (a NaN prior, false, or a smaller count), so one bad
// sample cannot poison a model.
//
// Threading: a Learner is not shared across threads without external
// synchronization; Predict() on a const Learner may run on many threads at once.
#ifndef RFFSTREAM_LEARNER_H_
#define RFFSTREAM_LEARNER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "rffstream/feature_map.h"
#include "rffstream/learner_config.h"
#include "rffstream/rls.h"
#include "rffstream/thread_pool.h"

namespace rffstream {
namespace internal {
class CheckpointAccess;
class LearnerMerge;
}  // namespace internal

template <class Real>
class BasicLearner {
 public:
  [[nodiscard]] static absl::StatusOr<BasicLearner> Create(LearnerConfig config);

  const LearnerConfig& config() const { return config_; }
  int input_dimension() const { return feature_map_.input_dimension(); }

  // The current model's prediction for x (of output 0). REQUIRES: x.size() ==
  // input_dimension(), all finite.
  Real Predict(std::span<const double> x) const noexcept;

  // Returns the a-priori prediction for x, then learns from (x, target); NaN
  // when the sample was refused and not learned (see the top of this file).
  // REQUIRES: config().num_outputs == 1, x.size() == input_dimension().
  Real Learn(std::span<const double> x, Real target) noexcept;

  // Several outputs: the predictions of outputs 0 .. predictions.size() - 1;
  // and learning one target per output, writing the a-priori predictions
  // (false, with NaN priors, when the sample was refused and not learned).
  // REQUIRES: predictions.size() <= config().num_outputs; targets and priors
  // hold config().num_outputs values.
  void PredictOutputs(std::span<const double> x, std::span<Real> predictions) const noexcept;
  bool LearnOutputs(std::span<const double> x, std::span<const Real> targets,
                    std::span<Real> priors) noexcept;

  // Learns k samples at once: `inputs` holds k rows of input_dimension()
  // values (row-major); `targets` and `priors` hold k rows of num_outputs
  // values, the priors being what k calls of LearnOutputs() would return
  // (but for a bulk block, BasicRls::kBulkSamples or more in float32's
  // factor form with β = 1, whose priors are all made with the model from
  // before the block: rls.h).
  // Features are mapped as a block and the RLS update is one rank-k
  // (Woodbury) update when β = 1 (with the hinge loss, whose margin test
  // needs each row's a-priori prediction, the rows are learned one after
  // another, with the same results as LearnOutputs()). For throughput
  // on files and pipes, not for latency: scratch grows to the largest k seen.
  // Returns the number of samples learned: a refused sample (NaN priors) is
  // skipped and the others are learned as if it had not been there.
  // REQUIRES: inputs.size() == k · input_dimension(), targets.size() ==
  // priors.size() == k · num_outputs.
  int LearnBlock(std::span<const double> inputs, std::span<const Real> targets,
                  std::span<Real> priors);

  // Splitting a sample's work across threads. Its feature row is z(x)
  // followed by the intercept's 1 when enabled: row_length() values. MapRow()
  // only reads the feature map, which never changes after Create(), so it may
  // run on any thread while another one learns (a reader thread mapping the
  // next samples, say); the *Row methods then do from the row what their
  // counterparts above do from x, with the same results. REQUIRES:
  // row.size() == row_length(); rows holds k rows of row_length() values.
  // From the map and the config's intercept, which never change after
  // Create() (SetRidge changes only the ridge): a reading thread may ask
  // while ForgetToPrior() replaces the engines.
  int row_length() const { return feature_map_.num_features() + (config_.intercept ? 1 : 0); }
  void MapRow(std::span<const double> x, std::span<Real> row) const noexcept;
  void PredictRowOutputs(std::span<const Real> row, std::span<Real> predictions) const noexcept;
  bool LearnRowOutputs(std::span<const Real> row, std::span<const Real> targets,
                       std::span<Real> priors) noexcept;
  int LearnRowBlock(std::span<const Real> rows, std::span<const Real> targets,
                     std::span<Real> priors);

  struct PredictionWithVariance {
    Real prediction;
    // σ² (1 + zᵀPz): the predictive variance of a new observation, with σ²
    // estimated online from the a-priori errors (exact Bayesian linear
    // regression on the features when β = 1; NaN, unknown, before the first
    // sample is learned, since nothing is known yet of the noise, and always
    // with the hinge loss, which has no noise model).
    Real variance;
  };
  // Uses the Learner's scratch space: like Learn(), not for concurrent use.
  // O(D²). REQUIRES: as Predict().
  PredictionWithVariance PredictWithVariance(std::span<const double> x) noexcept;
  // The same from a feature row (const: uses no scratch).
  PredictionWithVariance PredictRowWithVariance(std::span<const Real> row) const noexcept;

  // Splits each sample's work across `pool`'s threads (nullptr: this
  // thread alone): every RLS engine's pass over P and, for blocks, the
  // feature map and the rank-k update's matrix products
  // (BasicRls::SetThreadPool). The work is cut into the same parts whatever
  // the threads, so the results are the same bits as with one (tested). A
  // copy of the learner shares the pool: copies used from threads of their
  // own stay independent, their calls on the pool taking turns. Allocates; learning then allocates
  // no more than with one thread.
  void SetThreadPool(std::shared_ptr<ThreadPool> pool);
  // Forgets every sample learned: the weights and P return to the prior,
  // as after Create(), for a stream that changed (ChangeDetector); then
  // learns the k samples given again (`inputs`: k rows, `targets`: k rows
  // of num_outputs), which were counted when first learned, so the counts
  // (samples_learned(), updates()) are as they were. The feature map is
  // kept, so MapRow() may go on on another thread. `ridge` > 0: the prior's
  // λ from now on (0: the config's). `priors`, when given (k rows of
  // num_outputs), receives the a-priori predictions of the samples learned
  // again. Allocates.
  void ForgetToPrior(std::span<const double> inputs = {}, std::span<const Real> targets = {},
                     double ridge = 0, std::span<Real> priors = {});
  const std::shared_ptr<ThreadPool>& thread_pool() const { return pool_; }

  std::int64_t samples_learned() const { return samples_learned_; }

  // A classifier's new class (one-vs-rest outputs, +1 for the class and -1
  // elsewhere): appends an output as if the class had been declared from
  // the start, its target -1 for every sample learned. With the squared
  // loss: from K >= 3 outputs exactly when they are (each sample's targets
  // sum to 2 - K, so the new weights are the outputs' sum over K - 2; an
  // output added inexactly before passes its error on); from 2 outputs by
  // the intercept, whose row of P⁻¹ = λI + Σ zzᵀ is λ e + Σ z: exact with
  // β = 1, close with forgetting (whose refresh keeps λ only on average);
  // without an intercept the new output starts at the prior, 0, as if the
  // earlier samples had said nothing of the class. With the hinge loss the
  // class gets a fresh engine that learns from the samples that follow (as
  // River's one-vs-rest does). The new output's noise estimate starts at
  // the others' mean. O(D²) (O(D³) for float32's factor with 2 outputs).
  // FailedPrecondition with fewer than 2 outputs or an unsound model.
  // Allocates.
  [[nodiscard]] absl::Status AddClass();

  // OK while the model is sound; else FailedPrecondition naming what was
  // lost and the setting that avoids it (see BasicRls::soundness()). Once
  // not sound, a model refuses every sample and must not be saved: the
  // caller stops, and the last checkpoint saved before stays the good one.
  // O(number of engines).
  [[nodiscard]] absl::Status CheckSound() const;
  // The RLS updates made: one per learned sample with the squared loss; with
  // the hinge loss one per output inside its margin (margin violations).
  std::int64_t updates() const { return updates_; }

  // Replaces the model's RLS state by an information form (A, b and the
  // noise sums: BasicRls::InformationForm), such as the sum of several
  // learners' deltas in data-parallel learning (information_delta.h), and
  // its sample count by `samples_learned`. O(D³). With `ridge`, the form's
  // prior is `ridge` I and the model's ridge becomes it (β = 1 only: a
  // merged model whose ridge was chosen again). The squared loss only
  // (FailedPrecondition otherwise); errors as BasicRls::SetInformationForm,
  // the model unchanged.
  [[nodiscard]] absl::Status SetInformationForm(
      const typename BasicRls<Real>::InformationForm& form, std::int64_t samples_learned,
      std::optional<double> ridge = std::nullopt);

  // Changes the ridge λ of a model learned with β = 1 and the squared
  // loss, exactly: its information form λI + Σ zzᵀ becomes λ'I + Σ zzᵀ, as
  // if it had learned every sample with λ' (ridge_by_gcv.h chooses one).
  // O(D³). FailedPrecondition with forgetting or the hinge loss (whose
  // prior is no longer λI, or is per class) or a λ' that is not positive;
  // errors of BasicRls::SetInformationForm; the model unchanged then.
  [[nodiscard]] absl::Status SetRidge(double ridge);

  // Ridge weights of one output over the features, then the intercept (when enabled).
  // Empty for an output the model does not have.
  std::span<const Real> weights(int output = 0) const {
    if (output < 0 || output >= config_.num_outputs) return {};
    return rls(output).weights(OutputInEngine(output));
  }
  const BasicFeatureMap<Real>& feature_map() const { return feature_map_; }
  // The RLS engine that learns an output: the one all outputs share with the
  // squared loss, the output's own with the hinge loss.
  const BasicRls<Real>& rls(int output = 0) const {
    return rls_[rls_.size() == 1 ? 0 : static_cast<std::size_t>(output)];
  }

 private:
  friend class internal::CheckpointAccess;
  friend class internal::LearnerMerge;

  BasicLearner(LearnerConfig config, BasicFeatureMap<Real> feature_map);
  int OutputInEngine(int output) const { return rls_.size() == 1 ? output : 0; }
  // Whether x (a row) has input_dimension() (row_length()) values; asserts
  // it in debug builds.
  bool FitsInput(std::span<const double> x) const noexcept;
  bool FitsRow(std::span<const Real> row) const noexcept;
  // Whether a sample's targets and priors hold num_outputs values each.
  bool FitsOutputs(std::size_t targets, std::size_t priors) const noexcept;
  bool LearnRowHinge(std::span<const Real> row, std::span<const Real> targets,
                     std::span<Real> priors) noexcept;

  LearnerConfig config_;
  BasicFeatureMap<Real> feature_map_;
  // The squared loss: one engine for all outputs. The hinge loss: one per
  // output (see Loss::kHinge).
  std::vector<BasicRls<Real>> rls_;
  std::vector<Real> features_;  // scratch for Learn: the feature row of x
  std::vector<Real> block_features_;  // scratch for LearnBlock: k rows of z(x)
  std::vector<Real> block_rows_;      // the same rows with the intercept's 1
  std::shared_ptr<ThreadPool> pool_;
  std::int64_t samples_learned_ = 0;
  std::int64_t updates_ = 0;
};

using Learner = BasicLearner<double>;
using LearnerF32 = BasicLearner<float>;

extern template class BasicLearner<float>;
extern template class BasicLearner<double>;

}  // namespace rffstream

#endif  // RFFSTREAM_LEARNER_H_
