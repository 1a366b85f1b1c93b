// File: apps/commands/gathered_noise.h
//
// The noise estimate of ranks that gather only (--rank_model=merged): no
// rank sums Σ e²/(1 + zᵀPz) any more, so each merge sets the noise sums
// from the targets' squares. For β = 1 that sum is the least squares cost
// Σ y² − bᵀw of the merged model (RlsInformationForm::target_squares): the
// ranks send the squares of the targets they gathered since the last merge
// and their count, and the total's squares start from its noise sums plus
// its bᵀw.
#ifndef RFFSTREAM_APPS_GATHERED_NOISE_H_
#define RFFSTREAM_APPS_GATHERED_NOISE_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rffstream/rls.h"
#include "rffstream/rls_information_form.h"
#include "rffstream/stream/model_stage.h"

namespace rffstream::app {

template <class Real>
class GatheredNoise {
 public:
  // The total's squares from its noise sums: at the start, and after a new
  // width or ridge (the noise sums then carry on as in one process).
  absl::Status Recount(RlsInformationForm& total) {
    absl::StatusOr<std::vector<double>> explained = ExplainedSquares(total);
    if (!explained.ok()) return explained.status();
    target_squares_ = total.noise_sums;
    for (std::size_t output = 0; output < target_squares_.size(); ++output) {
      target_squares_[output] += (*explained)[output];
    }
    total.target_squares = target_squares_;
    squares_at_merge_.resize(target_squares_.size(), 0.0);
    return absl::OkStatus();
  }

  // The samples this rank gathered since the last merge.
  std::int64_t SinceMerge(const ModelStage<Real>& model) const {
    return model.gathered() - gathered_at_merge_;
  }

  // This rank's part of a merge's message: the squares of each output's
  // targets gathered since the last merge, then their count.
  void Append(const ModelStage<Real>& model, std::vector<double>& message) const {
    for (std::size_t output = 0; output < target_squares_.size(); ++output) {
      message.push_back(model.gathered_squares()[output] - squares_at_merge_[output]);
    }
    message.push_back(static_cast<double>(SinceMerge(model)));
  }

  // Every rank's parts summed, read from `summed` into the total (its
  // squares, and the noise estimate's weight: one a sample). Returns the
  // numbers read.
  std::size_t Take(const double* summed, const ModelStage<Real>& model, RlsInformationForm& total) {
    std::size_t at = 0;
    for (double& squares : target_squares_) squares += summed[at++];
    total.noise_weight += summed[at++];
    total.target_squares = target_squares_;
    gathered_at_merge_ = model.gathered();
    squares_at_merge_.assign(model.gathered_squares().begin(), model.gathered_squares().end());
    return at;
  }

  // Once the model took the total: the noise sums its squares gave.
  static void KeepNoiseSums(const BasicRls<Real>& rls, RlsInformationForm& total) {
    for (std::size_t output = 0; output < total.noise_sums.size(); ++output) {
      total.noise_sums[output] = static_cast<double>(rls.noise_sums()[output]);
    }
  }

 private:
  std::vector<double> target_squares_;  // Σ y² in the total (offset by new ridges)
  std::int64_t gathered_at_merge_ = 0;
  std::vector<double> squares_at_merge_;  // the model's gathered squares then
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_GATHERED_NOISE_H_
