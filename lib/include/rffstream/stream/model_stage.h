// File: rffstream/stream/model_stage.h
//
// The model stage of the stream pipeline: a data line's numbers in, its
// answer out. Maps the inputs to features (unless the reading thread did),
// predicts, and learns from a labelled line — its targets encoded for the
// task (classes as +1/-1 one-vs-rest), alone or in a block of k with one
// exact rank-k update — and keeps the running metrics that checkpoints save.
#ifndef RFFSTREAM_STREAM_MODEL_STAGE_H_
#define RFFSTREAM_STREAM_MODEL_STAGE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "rffstream/stream/bandwidth_follower.h"
#include "rffstream/stream/drift_tracker.h"
#include "rffstream/stream/ridge_follower.h"
#include "rffstream/stream/line_outcome.h"
#include "rffstream/checkpoint.h"
#include "rffstream/classification_metrics.h"
#include "rffstream/information_delta.h"
#include "rffstream/learner.h"
#include "rffstream/regression_metrics.h"
#include "rffstream/target_range.h"
#include "rffstream/task.h"
#include "rffstream/thread_pool.h"

namespace rffstream {

template <class Real>
class ModelStage {
 public:
  struct Settings {
    bool learns = true;          // false: predict (and score) only
    bool with_variance = false;  // answers hold the prediction and its variance
    int block_size = 1;          // labelled lines learned together
    // Threads for each sample's work (--threads); 0: as many as pay for the
    // model's size on this machine (ThreadPool::RecommendedThreads).
    int threads = 1;
    // --ridge=auto's later choices (ridge_follower.h); false when a ridge
    // was given (with --load: keep the model's).
    bool ridge_follows = true;
    // --gamma=auto's later choices (bandwidth_follower.h); likewise.
    bool bandwidth_follows = true;
    // A regression's answers within its learned targets' widened range
    // (target_range.h; --clip_predictions).
    bool clip_predictions = true;
  };

  explicit ModelStage(Settings settings)
      : settings_(settings), clip_predictions_(settings.clip_predictions) {}

  // Sizes the stage for `task`; refuses --variance for several outputs or
  // with blocks.
  [[nodiscard]] absl::Status SetTask(const Task& task);
  // The offsets a regression's targets are learned from (the warm-up
  // window's means, Task::target_offsets); before Start.
  void SetTargetOffsets(std::vector<double> offsets) { task_.target_offsets = std::move(offsets); }
  // The model, once built; SetTask first.
  void Start(BasicLearner<Real> learner);
  // A loaded model, its task and, when learning, its metrics.
  [[nodiscard]] absl::Status Resume(BasicCheckpoint<Real> checkpoint);

  const BasicLearner<Real>* learner() const { return learner_ ? &*learner_ : nullptr; }
  // Called just before the learner's feature map changes (--gamma=auto's
  // later choices, bandwidth_follower.h): whoever maps rows with learner()
  // on another thread must stop and drop the rows it mapped (nullptr:
  // nobody does). The learner stays at the same address.
  void set_before_feature_map_change(std::function<void()> hook) {
    before_map_change_ = std::move(hook);
  }

  // Data-parallel learning (the program's distributed_learn.h): every
  // sample learned from now on also goes to `delta` (nullptr: none); the learner, to
  // continue from the merged state; the model and metrics as a checkpoint;
  // and the metrics replaced by those of every process.
  // A sample's clock is its line number less `clock_offset` (the header).
  // With --forget=auto and `one_stream` (the ranks were dealt the lines of
  // one stream, so each sees the same regime) each rank watches its own
  // errors: on a change it forgets to its prior and learns its remembered
  // lines again, and its delta then holds those lines and what it learns
  // next (the merge that follows restarts the shared model:
  // RestartWithOtherRanks). Ranks that read streams of their own do not
  // watch: a merge brings the others' regimes into each rank's model, which
  // its errors would take for a change. The followers count this rank's
  // samples and keep its lines, and choose nothing themselves: the merges
  // choose for the shared model (mutable_ridge_follower(),
  // FollowBandwidthAtMerge()).
  // `gathers_only`: the learner is not updated between merges; a labelled
  // line is predicted with the last merged model and only joins the delta
  // (counted in gathered(), its targets' squares in gathered_squares()),
  // which leaves a rank the delta's matrix product as its work a sample.
  // Such a rank does not watch for change: its errors are those of a model
  // a merge old.
  void TrackInformation(BasicInformationDelta<Real>* delta, std::int64_t clock_offset,
                        bool one_stream, bool gathers_only = false) {
    delta_ = delta;
    clock_offset_ = clock_offset;
    gathers_only_ = delta_ != nullptr && gathers_only;
    if (delta_ != nullptr && (!one_stream || gathers_only_)) drift_.reset();
    gathered_squares_.assign(model_targets_.size(), 0.0);
  }
  // The samples gathered without learning (TrackInformation) since the
  // start, and the sums of their targets' squares, per output.
  std::int64_t gathered() const { return gathered_; }
  std::span<const double> gathered_squares() const { return gathered_squares_; }
  // At a merge after which the ridge's choice fell due on the merged count:
  // the bandwidth's choice on every rank's kept lines (`ranks`), which
  // comes first as in one process. True when the model was rebuilt with
  // another width (the ridge's choice made with it).
  bool FollowBandwidthAtMerge(std::int64_t line,
                              const typename BandwidthFollower<Real>::Ranks& ranks);
  RidgeFollower<Real>* mutable_ridge_follower() { return ridge_ ? &*ridge_ : nullptr; }
  // Another rank saw the stream change: this one forgets to its prior and
  // learns its remembered lines again, as on a change of its own (not
  // listed among drift()'s changes; counted in the checkpoint's restarts).
  // REQUIRES: drift() != nullptr.
  void RestartWithOtherRanks();
  BasicLearner<Real>* mutable_learner() { return learner_ ? &*learner_ : nullptr; }
  BasicCheckpoint<Real> Snapshot() const;
  void SetMetrics(const CheckpointRecord& record);

  // One data line: `mapped_row` is its feature row, or empty to map it here.
  // Its outcome goes to `sink` now, or when its block is learned. Returns
  // the sink's verdict (false: stop).
  bool Process(std::int64_t line_number, std::span<const double> inputs,
               std::span<const Real> mapped_row, bool labelled, std::span<const double> targets,
               OutcomeSink& sink);
  // Learns the lines waiting for a full block and passes on their outcomes.
  bool FlushBlock(OutcomeSink& sink);

  // The warm-up window (stream_pipeline.h): a line answered with another
  // model's `outputs` (encoded as this learner's) and `variance` (answered
  // with --variance), scored like any other;
  // once the model exists, the window's lines learned without an answer;
  // then the end of the window, whose metrics stay apart (warm_up()).
  bool AnswerProvisionally(std::int64_t line_number, std::span<const double> outputs,
                           double variance, bool labelled, std::span<const double> targets,
                           OutcomeSink& sink);
  void LearnWithoutAnswer(std::int64_t line_number, std::span<const double> inputs,
                          std::span<const double> targets);
  void EndWarmUp();

  // Refuses to save a model that is no longer sound (the file keeps the
  // last good one).
  [[nodiscard]] absl::Status Save(const std::string& path) const;
  // OK, or why the model stopped being sound (BasicLearner::CheckSound).
  [[nodiscard]] absl::Status CheckSound() const {
    return learner_ ? learner_->CheckSound() : absl::OkStatus();
  }

  const Task& task() const { return task_; }
  const RegressionMetrics& metrics() const { return metrics_; }  // of the first target
  // Of every target.
  const std::vector<RegressionMetrics>& target_metrics() const { return target_metrics_; }
  const ClassificationMetrics& classification() const { return classification_; }
  std::int64_t predicted_only() const { return predicted_only_; }  // unlabelled lines answered
  // The part of the metrics that the warm-up window's provisional model earned.
  const WarmUpScores& warm_up() const { return warm_up_; }
  // The first target's metrics after the window (WarmUpScores::after).
  const RegressionMetrics& after_warm_up() const { return warm_up_.after; }
  // With --forget=auto, what the drift tracking saw; else null.
  const DriftTracker<Real>* drift() const { return drift_ ? &*drift_ : nullptr; }
  // With --ridge=auto, the ridge's later choices (ridge_follower.h); else null.
  const RidgeFollower<Real>* ridge_follower() const { return ridge_ ? &*ridge_ : nullptr; }
  // With --gamma=auto, the bandwidth's later choices; else null.
  const BandwidthFollower<Real>* bandwidth_follower() const {
    return bandwidth_ ? &*bandwidth_ : nullptr;
  }
  std::int64_t samples_learned() const { return learner_ ? learner_->samples_learned() : 0; }
  // The targets learned so far (a regression's answers are clipped to it).
  const TargetRange& target_range() const { return target_range_; }
  // Every rank's range, at a data-parallel merge.
  void IncludeTargetRange(const TargetRange& range) { target_range_.Include(range); }
  // The model's outputs, made outside the stage (Python's predict), as
  // answers: the targets' offsets added back, then clipped.
  void ToAnswers(std::span<double> outputs) const;
  // Clipping turned on or off from here on (Python's clip_predictions,
  // which set_params may change).
  void set_clip_predictions(bool clip) { clip_predictions_ = clip; }

  static constexpr char kTooLarge[] =
      "a number is too large for the model (its features, prediction or update would not be "
      "finite)";

 private:
  // The answer of a line, and its score when labelled; a line whose
  // targets were `learned` widens the range later answers are clipped to.
  bool Answer(std::int64_t line_number, std::span<const Real> outputs, Real variance,
              std::span<const double> labels, bool learned, OutcomeSink& sink);
  // The same from outputs in double (the provisional model's, which a
  // float32 cast would round before their offsets come back).
  bool AnswerWith(std::int64_t line_number, std::span<const double> outputs, double variance,
                  std::span<const double> labels, bool learned, OutcomeSink& sink);
  // Refuses a line too large for the model; its `inputs` and `labels`, when
  // kept, name the largest number in the reason.
  bool Refuse(std::int64_t line_number, std::span<const double> inputs,
              std::span<const double> labels, OutcomeSink& sink) const;
  // A labelled line of a rank that gathers only (model_stage_gathering.cpp):
  // predicted with the merged model, then added to the delta.
  bool Gather(std::int64_t line_number, std::span<const double> inputs,
              std::span<const Real> row, std::span<const double> targets, Real variance,
              OutcomeSink& sink);
  // A block's rows predicted with the merged model, into block_priors_
  // (non-finite for a sample that cannot be gathered).
  void PredictBlockForGathering();
  // One learned sample into the delta (`priors`: its predictions); a rank
  // that gathers only first checks it: false, nothing added, when the
  // merged model could not take it.
  bool AddToDelta(std::span<const Real> row, std::span<const Real> targets,
                  std::span<const Real> priors, std::int64_t line_number);
  // A labelled line joins the block being gathered (learned once full, or
  // when a later choice of the ridge falls due there).
  bool QueueForBlock(std::int64_t line_number, std::span<const double> inputs,
                     std::span<const Real> mapped_row, std::span<const double> targets,
                     OutcomeSink& sink);
  // The drift tracker's restart, which the ridge's sums follow.
  void RestartOnDrift();
  // After a restart (`ridge_before`: the model's ridge before it): the
  // followers start over from the lines learned again, and the model goes
  // back to the window's width.
  void RestartFollowers(std::int64_t line, double ridge_before);
  // The bandwidth follower's state to save: a data-parallel rank's kept
  // lines are its own share only, and a follower past its lines' bound
  // keeps none, so then the saved model keeps its width.
  BandwidthFollowState BandwidthStateToSave() const;
  // A data-parallel rank's delta after a restart: the lines learned again.
  void RefillDelta();
  // After `line` was learned: the bandwidth's and the ridge's later choices
  // when due.
  void FollowSettings(std::int64_t line);
  // Whether the model restarted on a change of the stream (in this run or
  // before it was saved): the inputs may have moved since the window.
  bool RestartedOnDrift() const;
  // The same model with another feature map (the bandwidth follower's),
  // in place: whoever maps with the old one stops first.
  void ReplaceLearner(BasicLearner<Real> learner);
  // The drift tracker's state, its missing inputs filled in.
  DriftTrackingState TrackingStateToSave() const;

  const Settings settings_;
  bool clip_predictions_;
  Task task_;
  std::optional<BasicLearner<Real>> learner_;
  std::shared_ptr<ThreadPool> pool_;  // kept across reloaded models
  RegressionMetrics metrics_;
  std::vector<RegressionMetrics> target_metrics_;
  TargetRange target_range_;
  ClassificationMetrics classification_{0};
  WarmUpScores warm_up_;
  bool warm_up_ended_ = false;  // warm_up_.after sums the answers
  std::optional<DriftTracker<Real>> drift_;
  std::optional<RidgeFollower<Real>> ridge_;
  std::optional<BandwidthFollower<Real>> bandwidth_;
  std::function<void()> before_map_change_;
  std::int64_t map_changes_ = 0;  // ReplaceLearner's calls
  std::int64_t drift_restarts_before_ = 0;  // a loaded model's
  std::int64_t restarts_with_other_ranks_ = 0;
  std::int64_t predicted_only_ = 0;
  BasicInformationDelta<Real>* delta_ = nullptr;
  bool gathers_only_ = false;
  std::int64_t gathered_ = 0;
  std::vector<double> gathered_squares_;
  std::int64_t clock_offset_ = 0;
  std::int64_t last_learned_line_ = 0;  // the line of the last sample or block learned
  // Per-line buffers, sized once.
  std::vector<Real> feature_row_;
  std::vector<Real> model_targets_;
  std::vector<Real> priors_;
  std::vector<double> outputs_in_double_;  // Answer's outputs, as AnswerWith takes them
  std::vector<double> answer_;
  // Labelled lines waiting for a full block: feature rows (or, with
  // threads, inputs), model targets, labels, line numbers; and the block's
  // a-priori predictions.
  std::vector<Real> block_rows_;
  std::vector<double> block_inputs_;
  std::vector<Real> block_targets_;
  std::vector<double> block_labels_;
  std::vector<std::int64_t> block_line_numbers_;
  std::vector<double> block_lines_inputs_;  // when block_inputs_ does not hold them
  // The block's lines drift tracking remembers: not learned until the block is.
  int block_lines_remembered_ = 0;
  std::vector<Real> block_priors_;
};

extern template class ModelStage<float>;
extern template class ModelStage<double>;

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_MODEL_STAGE_H_
