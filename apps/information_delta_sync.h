// File: apps/information_delta_sync.h
//
// One rank's side of the merges of data-parallel learning: from the common
// base on, the model stage adds every learned sample to a delta; a merge sums
// every rank's delta (and noise sums and sample counts) into the running
// total A, b, and the learner continues from that total.
#ifndef RFFSTREAM_APPS_INFORMATION_DELTA_SYNC_H_
#define RFFSTREAM_APPS_INFORMATION_DELTA_SYNC_H_

#include <chrono>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "mpi_world.h"
#include "rffstream/information_delta.h"
#include "rffstream/rls.h"
#include "stream_pipeline.h"

namespace rffstream::app {

template <class Real>
class InformationDeltaSync {
 public:
  // The pipeline's model is the base every rank holds; tracking starts now.
  explicit InformationDeltaSync(StreamPipeline<Real>& pipeline)
      : delta_(pipeline.learner()->row_length(), pipeline.learner()->config().num_outputs) {
    const BasicLearner<Real>& learner = *pipeline.learner();
    absl::StatusOr<typename BasicRls<Real>::InformationForm> total = learner.rls().ToInformationForm();
    if (!total.ok()) {
      status_ = total.status();
      return;
    }
    total_ = *std::move(total);
    samples_ = learner.samples_learned();
    pipeline.mutable_model().TrackInformation(&delta_);
  }
  InformationDeltaSync(const InformationDeltaSync&) = delete;
  InformationDeltaSync& operator=(const InformationDeltaSync&) = delete;

  // Whether the base could be put in information form.
  const absl::Status& status() const { return status_; }
  const BasicInformationDelta<Real>& delta() const { return delta_; }

  // Sums every rank's delta into the total and continues from it; every
  // rank calls it the same number of times. `active`: this rank still has
  // lines. Returns whether any rank still has.
  absl::StatusOr<bool> Merge(StreamPipeline<Real>& pipeline, bool active, const MpiWorld& world) {
    const auto start = std::chrono::steady_clock::now();
    BasicLearner<Real>& learner = *pipeline.mutable_model().mutable_learner();
    const BasicRls<Real>& rls = learner.rls();
    const std::span<double> sums = delta_.Sums();  // ΔA, Δb, count
    message_.assign(sums.begin(), sums.end());
    for (std::size_t output = 0; output < total_.noise_sums.size(); ++output) {
      message_.push_back(static_cast<double>(rls.noise_sums()[output]) - total_.noise_sums[output]);
    }
    message_.push_back(static_cast<double>(rls.noise_weight()) - total_.noise_weight);
    message_.push_back(active ? 1.0 : 0.0);
    world.Sum(message_);
    const std::size_t information = total_.information.size();
    const std::size_t targets = total_.target_sums.size();
    for (std::size_t i = 0; i < information; ++i) total_.information[i] += message_[i];
    for (std::size_t i = 0; i < targets; ++i) total_.target_sums[i] += message_[information + i];
    samples_ += static_cast<std::int64_t>(message_[information + targets]);
    std::size_t at = information + targets + 1;
    for (double& noise : total_.noise_sums) noise += message_[at++];
    total_.noise_weight += message_[at++];
    const bool any_active = message_[at] > 0;
    delta_.Clear();
    if (absl::Status set = learner.SetInformationForm(total_, samples_); !set.ok()) return set;
    ++merges_;
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return any_active;
  }

  std::int64_t merges() const { return merges_; }
  std::size_t message_numbers() const { return message_.size(); }
  double seconds() const { return seconds_; }

 private:
  absl::Status status_;
  BasicInformationDelta<Real> delta_;
  typename BasicRls<Real>::InformationForm total_;
  std::int64_t samples_ = 0;
  std::vector<double> message_;
  std::int64_t merges_ = 0;
  double seconds_ = 0;
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_INFORMATION_DELTA_SYNC_H_
