// File: rffstream/ridge_by_gcv.h
//
// The ridge a model should have once it has grown past the window that
// chose it, judged on everything it learned and without the data:
// generalized cross-validation (Golub, Heath & Wahba, Technometrics 1979),
// a rotation-invariant form of leave-one-out, from ridge regression's
// sufficient statistics. With G = Σ z zᵀ (the information form less its
// prior λI), b = Σ z y and Σ y² of each output, and n samples, a candidate
// ridge r gets
//
//   w(r) = (G + rI)⁻¹ b,   RSS(r) = Σ y² − 2 wᵀb + wᵀGw,   df(r) = tr(G (G + rI)⁻¹),
//   GCV(r) = n · RSS(r) / (n − df(r))²,   summed over the outputs,
//
// all from one reduction of G to tridiagonal form T = QᵀGQ (O(D³) once;
// no eigenvalues or eigenvectors), then O(D) a candidate and output: df
// from the diagonal of (T + rI)⁻¹, w in T's basis by one tridiagonal
// solve. A
// window of 256 lines picks the ridge a 256-sample model needs; a stream
// 4 or 16 times longer needs less (rffstream's --ridge=auto re-chooses it
// so, rffstream/stream/ridge_follower.h).
//
//   absl::StatusOr<rffstream::RidgeChoice> choice = rffstream::ChooseRidgeByGcv(
//       gram, target_sums, target_squares, samples, current_ridge, rffstream::RidgeCandidates());
#ifndef RFFSTREAM_RIDGE_BY_GCV_H_
#define RFFSTREAM_RIDGE_BY_GCV_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"

namespace rffstream {

struct RidgeChoice {
  double ridge = 0;          // the candidate of the least score
  double score = 0;          // its GCV score
  double current_score = 0;  // the current ridge's
  // Per output, at the chosen ridge r: RSS + r‖w‖², the least regularized
  // cost, which an RLS model of β = 1 and prior rI holds as its noise sum
  // Σ e²/c.
  std::vector<double> regularized_costs;
};

// Ridges from 1e-6 to 10, a factor √10 apart.
std::vector<double> RidgeCandidates();

// `gram`: G, D × D row-major (symmetric); `target_sums`: b of each output,
// outputs runs of D; `target_squares`: Σ y² of each output; `samples`: n.
// A residual sum RSS = Σ y² − (2bᵀw − wᵀGw) loses what G's rounding hides:
// from a float32 model's G, a stream fitted to 10⁻⁸ of Σ y² scores 0 at
// every ridge. `current_costs` (optional, per output): the model's own
// RSS + λ‖w‖² at current_ridge λ (an RLS model's noise sums, Σ e²/c, summed
// without cancellation); each candidate's RSS is then taken from it and the
// change of the explained part, unless it disagrees with Σ y²'s beyond
// that rounding (a model whose sums hold another history).
// Errors: sizes that do not fit, n < 2, numbers that are not finite, no
// candidate with n > df (and G + rI positive definite as rounded).
[[nodiscard]] absl::StatusOr<RidgeChoice> ChooseRidgeByGcv(
    std::span<const double> gram, std::span<const double> target_sums,
    std::span<const double> target_squares, std::int64_t samples, double current_ridge,
    std::span<const double> candidates, std::span<const double> current_costs = {});

}  // namespace rffstream

#endif  // RFFSTREAM_RIDGE_BY_GCV_H_
