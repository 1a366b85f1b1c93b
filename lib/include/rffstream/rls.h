// File: rffstream/rls.h
//
// Recursive least squares: ridge regression weights kept current one sample at
// a time, without storing the data. With forgetting factor β = 1 the weights
// after n samples equal the batch ridge solution
//
//   w = (λ I + Σ z_t z_tᵀ)⁻¹ Σ z_t y_t
//
// up to rounding. With β < 1 recent samples weigh more and the ridge is kept
// alive by a cyclic rank-one refresh (Gunnarsson 1996): after sample t, A
// gains α e_i e_iᵀ, i = t mod D, α = D (1 - β) λ, which over a cycle restores
// the (1 - β) λ I the decay removed: the regularization stays near λ I (not
// βⁿ λ) and P bounded, at O(D²) a sample. Exactly, after n samples:
//
//   A_n = βⁿ λ I + Σ_t β^(n-t) (z_t z_tᵀ + α e_(t mod D) e_(t mod D)ᵀ),
//   b_n = Σ_t β^(n-t) z_t y_t,   w = A_n⁻¹ b_n.
//
// Engines. The covariance form stores P's upper triangle, downdated lazily
// in the pass that computes the next P z (internal/symmetric_update.h); a
// block is one Woodbury update. It subtracts, so P loses definiteness once
// its condition number nears 1/ε. The factor form stores P = L D Lᵀ,
// updated by Bierman's U-D step (factor_update.h), positive definite by
// construction: float32 always, float64 below kSmallestCovarianceRidge;
// bulk blocks update Q with Qᵀ Q = P⁻¹ by QR (information_update.h).
//
//   rffstream::Rls rls(/*dimension=*/4, /*ridge=*/1e-3, /*forgetting=*/1.0);
//   const double z[4] = {0.5, -0.1, 0.3, 1.0};
//   double prior = rls.Learn(z, 2.0);  // prediction made before learning
#ifndef RFFSTREAM_RLS_H_
#define RFFSTREAM_RLS_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rffstream/aligned_vector.h"
#include "rffstream/rls_information_form.h"
#include "rffstream/thread_pool.h"

namespace rffstream {
namespace internal {
class ByteReader;
class ByteWriter;
class CheckpointAccess;
class FactorBlockAccess;
}  // namespace internal

template <class Real>
class BasicRls {
 public:
  // `num_outputs` targets share one P: each sample costs one update of P
  // plus num_outputs weight updates. REQUIRES: dimension > 0, ridge > 0,
  // 0 < forgetting <= 1, num_outputs >= 1 (LearnerConfig::Validate).
  BasicRls(int dimension, double ridge, double forgetting, int num_outputs = 1);

  int dimension() const { return dimension_; }
  int num_outputs() const { return num_outputs_; }
  double ridge() const { return ridge_; }

  // float64 keeps the covariance form from this ridge up.
  static constexpr double kSmallestCovarianceRidge = 1e-6;
  // Whether an engine of this ridge keeps the factors L, D (true) or P.
  static constexpr bool UsesSquareRootForm(double ridge) {
    return std::is_same_v<Real, float> || ridge < kSmallestCovarianceRidge;
  }
  bool square_root_form() const { return factor_form_; }

  // w_outputᵀz. REQUIRES: z.size() == dimension(), 0 <= output < num_outputs().
  Real Predict(std::span<const Real> z, int output = 0) const;

  // Learns (z, target) and returns the a-priori prediction wᵀz made before
  // the update, or NaN when the sample was not learned (see LearnOutputs).
  // REQUIRES: num_outputs() == 1, z.size() == dimension(). No allocation.
  Real Learn(std::span<const Real> z, Real target);

  // Learns (z, one target per output); `priors` receives the a-priori
  // predictions. A sample that would make the model non-finite — z or a
  // target not finite, or so large that c = 1 + zᵀPz, an a-priori error
  // e, e²/c or a new weight overflows — is not learned: the model is left as
  // it was, `priors` are NaN and the result is false. REQUIRES:
  // targets.size() == priors.size() == num_outputs(), z.size() ==
  // dimension(). No allocation, but after bulk blocks (L, D made anew: O(D³)).
  bool LearnOutputs(std::span<const Real> z, std::span<const Real> targets,
                    std::span<Real> priors);

  // Learns k samples at once: `features` holds k rows of dimension() values
  // (row-major), `targets` k rows of num_outputs() values; `priors` receives
  // what k calls of LearnOutputs() would have returned: with β = 1 one
  // Woodbury update (covariance form, the same to rounding) or one sweep
  // over a factor of 1 MiB or more (the same bits), else, and around a
  // refused sample, one at a time. In bulk (factor form, β = 1, k >=
  // kBulkSamples: one QR, the model the same to rounding) each prior is made
  // with the weights before the block. Returns the number learned. Scratch
  // grows to the largest k seen (the sweep and bulk hold a second factor).
  // REQUIRES: features.size() == k · dimension(), targets, priors k · num_outputs().
  static constexpr int kBulkSamples = 1024;
  int LearnBlock(std::span<const Real> features, std::span<const Real> targets,
                  std::span<Real> priors);

  // Splits the covariance form's pass over P and its blocks' products (rows of
  // P's triangle with equal shares of its entries, their parts of P z added in
  // one order), and bulk blocks' products, across `pool` (nullptr: this thread
  // alone), in parts independent of the threads: the same bits with any
  // number. The covariance form at D < 256: one part.
  void SetThreadPool(std::shared_ptr<ThreadPool> pool);
  // The parts that work is cut into: threads beyond this many idle.
  int parts() const { return static_cast<int>(row_bounds_.size()) - 1; }

  // Whether the engine still holds a sound model. It stops for good when a sample
  // shows P can no longer be kept positive definite and bounded: c = 1 + zᵀPz < 1
  // in the covariance form (a ridge too small for the stream), a P too large for
  // the factor form's numbers (forgetting that outruns its refresh). That sample
  // is refused, as every later one is by the caller that checks this.
  enum class Soundness { kSound, kLostDefiniteness, kOutgrewPrecision };
  Soundness soundness() const { return soundness_; }

  // zᵀ P z: the posterior variance of wᵀz in units of the noise variance
  // (RLS with β = 1 is Bayesian linear regression with prior variance 1/λ
  // times the noise variance). O(D²). REQUIRES: z.size() == dimension().
  Real CovarianceQuadraticForm(std::span<const Real> z) const;

  // The noise variance σ² estimated from the a-priori errors: the β-weighted
  // mean of e² / (1 + zᵀPz), whose expectation is σ² under the model. NaN
  // (unknown) before the first sample: no data, no estimate of the noise.
  Real NoiseVarianceEstimate(int output = 0) const {
    return noise_weight_ > 0 ? noise_sums_[output] / noise_weight_
                             : std::numeric_limits<Real>::quiet_NaN();
  }

  // The sums behind NoiseVarianceEstimate(): per output, and their weight.
  std::span<const Real> noise_sums() const { return noise_sums_; }
  Real noise_weight() const { return noise_weight_; }
  // The weights of one output.
  std::span<const Real> weights(int output = 0) const {
    return std::span<const Real>(weights_).subspan(static_cast<std::size_t>(output) * dimension_, dimension_);
  }

  // Appends an output with these weights and noise sum (a classifier's new class:
  // BasicLearner::AddClass). REQUIRES: weights.size() == dimension(). Allocates.
  void AddOutput(std::span<const Real> weights, Real noise_sum);

  // P = A⁻¹ as a full D × D row-major matrix (to inspect, export; allocates).
  std::vector<Real> CovarianceMatrix() const;

  // The state as ridge regression's sufficient statistics A, b (β = 1).
  using InformationForm = RlsInformationForm;
  // O(D³): A = QᵀQ in the factor form (from Q, or D^(-1/2) L⁻¹), else P
  // inverted by Cholesky; FailedPrecondition if that has no finite inverse.
  [[nodiscard]] absl::StatusOr<InformationForm> ToInformationForm() const;
  // A new ridge λ' for β = 1, exactly: A gains (λ' - λ) I (O(D³)); errors as below.
  [[nodiscard]] absl::Status SetRidge(double ridge);
  // The state of `form` (P = A⁻¹, w = A⁻¹ b by a Cholesky factorization,
  // O(D³)); with `ridge` (β = 1), a form whose prior is `ridge` I. Errors,
  // the state unchanged: InvalidArgument, sizes that do not fit;
  // FailedPrecondition, A not positive definite, a result not finite, or a
  // ridge with forgetting. Allocates.
  [[nodiscard]] absl::Status SetInformationForm(const InformationForm& form);
  [[nodiscard]] absl::Status SetInformationForm(const InformationForm& form, double ridge);

 private:
  friend class internal::CheckpointAccess;
  friend class internal::FactorBlockAccess;

  // The complete learning state, for checkpoints. In the factor form the
  // stored triangle is P (float32 before format 6, float64 before 9), S
  // with P = S Sᵀ (before 12), or L with D on its diagonal, empty from 16
  // when Q follows; older ones are converted once on loading.
  enum class StoredTriangle { kCovariance, kCholeskyFactor, kUnitFactorAndScales, kFactorsOrNone };
  void SaveState(internal::ByteWriter& writer) const;
  [[nodiscard]] absl::Status LoadState(internal::ByteReader& reader,
                                       StoredTriangle stored = StoredTriangle::kFactorsOrNone);
  // LoadState's parts (rls_state.cpp): the fields read and checked (the
  // stored triangle into `triangle`); an old checkpoint's P factored (float64
  // without a Cholesky factor: kept as P, marked unsound).
  [[nodiscard]] absl::Status ReadState(internal::ByteReader& reader, bool may_lack_triangle,
                                       std::vector<Real>& triangle);
  [[nodiscard]] absl::Status FactorFromSavedCovariance(const std::string& source);

  // The factor form (rls_factor_form.cpp): LearnOutputs, zᵀPz, P; L, D from
  // a P in double (false if not positive definite); trace(P), bounds anew.
  bool LearnFactorOutputs(std::span<const Real> z, std::span<const Real> targets,
                          std::span<Real> priors);
  // Its parts: the bounds that keep a sample from making the model
  // non-finite (priors filled), and forgetting's refresh of a coordinate.
  bool FactorSampleIsSafe(std::span<const Real> z, std::span<const Real> targets,
                          std::span<Real> priors);
  void RefreshFactorCoordinate();
  // One U-D step (internal/factor_update.h) with features_ as z: c returned, P z in
  // product_; then the weights, noise, refresh and bounds from P z.
  Real StepFactor(Real prior, Real scale_factor, int last_column);
  void FinishFactorStep(const Real* gain, Real denominator, std::span<const Real> targets,
                        std::span<const Real> priors);
  // Bulk (rls_bulk.cpp): false, nothing learned, if a sample comes near
  // overflow; Q from L, D and back (in double; false without the memory);
  // a settled copy; Q and B in a checkpoint (a flag, then them; from format
  // 16 they must follow an empty triangle, which leaves factor_scales_ empty).
  bool LearnBulkBlock(std::span<const Real> features, std::span<const Real> targets,
                      std::span<Real> priors);
  void StartInformationFactor();
  bool SettleInformationFactor();
  BasicRls Settled() const;
  void WriteInformationFactor(internal::ByteWriter& writer) const;
  [[nodiscard]] absl::Status ReadInformationFactor(internal::ByteReader& reader);
  // Blocks (rls_factor_block.cpp).
  int LearnFactorBlock(std::span<const Real> features, std::span<const Real> targets,
                       std::span<Real> priors);
  bool LearnFusedFactorRun(std::span<const Real> features, std::span<const Real> targets,
                           std::span<Real> priors);
  int SamplesBeforeBoundsRefresh() const;
  Real FactorQuadraticForm(std::span<const Real> z) const;
  std::vector<Real> FactorCovarianceMatrix() const;
  bool SetFactorFromCovariance(const std::vector<double>& covariance);
  double FactorTrace() const;
  void RecomputeFactorBounds();

  void SettlePendingUpdates();  // the pending rank-one terms into the stored triangle
  // The pass over P: the pending terms applied and product_ = P features_,
  // on the pool's threads when there is one; then nothing is pending.
  void PassOverCovariance();
  // The rows where the parts of the pass over P start, then D.
  static std::vector<int> RowParts(int dimension);
  // Forgetting's refresh after a sample (u = P z / β, c = `denominator`) into
  // the scratch weights; false if they turn non-finite.
  bool RefreshIntoScratch(std::span<const Real> gain, Real decay, Real denominator,
                          Real& refresh_denominator);
  // Adds a sample's a-priori errors to the noise estimate (variance factor c).
  void RecordErrors(const Real* targets, const Real* priors, Real denominator);

  Real* Row(int i) { return covariance_.data() + static_cast<std::size_t>(i) * stride_; }
  const Real* Row(int i) const { return covariance_.data() + static_cast<std::size_t>(i) * stride_; }
  // Entry (i, j) of the stored triangle, either order.
  Real Stored(int i, int j) const { return i <= j ? Row(i)[j] : Row(j)[i]; }

  int dimension_;
  int num_outputs_;
  double ridge_;
  // The factor form (L, D) rather than the covariance form (P): UsesSquareRootForm(ridge_).
  bool factor_form_;
  std::size_t stride_;  // padded length of rows and vectors (see symmetric_update.h)
  Real forgetting_;
  Real refresh_strength_;  // α = D (1 - β) λ
  int next_refreshed_coordinate_ = 0;
  // The covariance form keeps P lazily: the true P is
  //   pending_scale_ · S - pending_gain_weight_ · u uᵀ - pending_refresh_weight_ · g gᵀ
  // with S the stored upper triangle, u = gain_ and g = refresh_gain_. The next
  // Learn() applies the pending terms in the same pass that computes P z.
  // The factor form stores column j of L in row j (rows j .. D - 1).
  AlignedVector<Real> covariance_;  // a dimension × stride_ array
  std::vector<Real> factor_scales_;  // the factor form's D
  Real pending_scale_ = 1;
  Real pending_gain_weight_ = 0;
  Real pending_refresh_weight_ = 0;
  // The pass over S alternates direction (see internal/symmetric_update.h).
  bool next_pass_bottom_up_ = false;
  std::vector<Real> weights_;  // num_outputs_ runs of dimension_ entries
  std::vector<Real> next_weights_;  // scratch: the weights after a sample, until accepted
  AlignedVector<Real> gain_;          // u = P z / β of the last sample
  AlignedVector<Real> refresh_gain_;  // g = α P e_i of the last refresh
  AlignedVector<Real> product_;       // scratch: P z
  AlignedVector<Real> features_;      // scratch: z, zero-padded to stride_
  AlignedVector<Real> block_scratch_;  // scratch of LearnBlock, grown on demand
  // In bulk, the model: [Q B] (column j of Q at j · stride_, then B's), with
  // covariance_ and factor_scales_ out of date.
  AlignedVector<Real> information_factor_;
  // What a block's sweep (bulk update) writes, swapped with covariance_
  // (information_factor_) if sound; fuse_every_block_: tests sweep small factors.
  AlignedVector<Real> block_factor_;
  bool fuse_every_block_ = false;
  // Part p of the pass over P (RowParts) takes rows row_bounds_[p] .. row_bounds_[p + 1] - 1
  // and, after the first, sums its part of P z into its own run of stride_ entries of
  // partial_products_. The pool, when set, runs the parts.
  std::vector<int> row_bounds_;
  AlignedVector<Real> partial_products_;
  std::shared_ptr<ThreadPool> pool_;
  // β-weighted sums behind NoiseVarianceEstimate().
  std::vector<Real> noise_sums_;  // one per output
  Real noise_weight_ = 0;
  // The factor form: trace(P) and a lower bound on the smallest d, recomputed exactly every
  // kTraceRefresh samples (they bound a sample's effect before the factors are touched).
  double factor_trace_ = 0;
  double factor_smallest_scale_ = 0;
  int samples_since_trace_ = 0;
  Soundness soundness_ = Soundness::kSound;
};

using Rls = BasicRls<double>;
using RlsF32 = BasicRls<float>;

extern template class BasicRls<float>;
extern template class BasicRls<double>;

}  // namespace rffstream

#endif  // RFFSTREAM_RLS_H_
