#include "commands/distributed_learn.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "rffstream/stream/option_text.h"
#include "core/command_status.h"
#include "commands/distributed_options.h"
#include "commands/information_delta_sync.h"
#include "commands/shared_base.h"
#include "rffstream/stream/input_format.h"
#include "commands/learn_command.h"
#include "commands/ranks_drift_report.h"
#include "commands/ranks_reports.h"
#include "rffstream/stream/model_loading.h"
#include "rffstream/stream/model_options.h"
#include "front/stream_options.h"
#include "rffstream/information_delta.h"

namespace rffstream::app {
namespace {

constexpr std::int64_t kMergedSyncPerFeature = 8;

std::string ForRank(const std::string& pattern, int rank) {
  return absl::StrReplaceAll(pattern, {{"%r", absl::StrCat(rank)}});
}

template <class Real>
class DistributedCoordinator : public RunCoordinator<Real> {
 public:
  // A line's clock is its line number less `clock_offset`.
  DistributedCoordinator(const MpiWorld& world, const StreamOptions& options, bool dealt,
                         std::int64_t clock_offset)
      : world_(world), sync_every_(options.parallel.sync_every),
        sync_every_given_(options.parallel.sync_every_given),
        gathers_only_(options.parallel.ranks_gather_only), dealt_(dealt),
        quiet_(options.output.quiet), clock_offset_(clock_offset),
        block_size_(options.output.block), memory_limit_(MemoryLimitBytes(options.model)) {}

  absl::Status Begin(StreamPipeline<Real>& pipeline) override {
    if (pipeline.learner() == nullptr) return absl::OkStatus();  // rank 0 before its window
    return world_.rank() == 0 ? ShareBase(pipeline) : StartSync(pipeline);
  }

  absl::Status AfterLine(StreamPipeline<Real>& pipeline) override {
    if (!sync_.has_value()) {
      return pipeline.learner() != nullptr ? ShareBase(pipeline) : absl::OkStatus();
    }
    if (sync_every_ > 0 && sync_->SamplesSinceMerge(pipeline) >= sync_every_) {
      return sync_->Merge(pipeline, /*active=*/true, world_).status();
    }
    return absl::OkStatus();
  }

  absl::StatusOr<bool> Finish(StreamPipeline<Real>& pipeline, RunTotals& totals) override {
    if (!sync_.has_value()) {
      if (pipeline.learner() == nullptr) {
        std::string none;  // tells the other ranks there is no model
        world_.Broadcast(none);
        return absl::FailedPreconditionError("rank 0's input gave no data line to build a model from");
      }
      if (absl::Status shared = ShareBase(pipeline); !shared.ok()) return shared;
    }
    // Merge until no rank has lines left.
    while (true) {
      absl::StatusOr<bool> others_active = sync_->Merge(pipeline, /*active=*/false, world_);
      if (!others_active.ok()) return others_active.status();
      if (!*others_active) break;
    }
    MergeRanksReports(world_, dealt_, pipeline.mutable_model(), totals);
    const std::string drifts = DriftReport(pipeline);
    if (world_.rank() == 0 && !quiet_) {
      std::fprintf(stderr,
                   "mpirun: %d ranks, %lld merges of %zu numbers (%.1f MB) each, %.3f s merging "
                   "on rank 0\n",
                   world_.size(), static_cast<long long>(sync_->merges()), sync_->message_numbers(),
                   8e-6 * static_cast<double>(sync_->message_numbers()), sync_->seconds());
      if (!drifts.empty()) std::fprintf(stderr, "%s\n", drifts.c_str());
    }
    return world_.rank() == 0;
  }

 private:
  absl::Status ShareBase(StreamPipeline<Real>& pipeline) {
    // A loaded model brings its own forgetting and loss.
    const LearnerConfig& config = pipeline.learner()->config();
    if ((config.forgetting != 1.0 && !dealt_) || config.loss != Loss::kSquared) {
      return absl::InvalidArgumentError(absl::StrCat(
          "under mpirun the ranks merge squared-loss models, with forgetting only from one "
          "input file; the model has beta ", config.forgetting, " and the ",
          std::string(LossName(config.loss)), " loss"));
    }
    if (absl::Status sent = BroadcastBase(world_, pipeline.model()); !sent.ok()) return sent;
    return StartSync(pipeline);
  }

  // Every rank holds the base: the merges start. The ranks' messages must
  // have one layout: every rank's ridge follows (--ridge=auto), or none.
  absl::Status StartSync(StreamPipeline<Real>& pipeline) {
    if (world_.Max(gathers_only_ ? 1.0 : 0.0) > 0 && world_.Max(gathers_only_ ? 0.0 : 1.0) > 0) {
      return AsUsageError(absl::InvalidArgumentError(absl::StrCat(
          "under mpirun every rank predicts with the same --rank_model; this rank has --rank_model=",
          gathers_only_ ? "merged" : "own", " and another does not")));
    }
    if (gathers_only_ && pipeline.learner()->config().forgetting != 1.0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "under mpirun, --rank_model=merged needs a forgetting factor of 1; the model has beta ",
          pipeline.learner()->config().forgetting));
    }
    // Ranks that predict with the merged model need it fresh. A merge costs
    // O(D³), gathering a sample O(D²): merges every 8 D samples a rank keep
    // their share of the time small at any D (docs/scaling.md).
    if (gathers_only_ && !sync_every_given_) {
      sync_every_ = kMergedSyncPerFeature * pipeline.learner()->config().features.num_features;
    }
    // The merges' numbers, refused before they are made, by every rank when
    // any would go beyond its memory limit.
    const absl::Status fits = RankFitsMemory(pipeline.learner()->config(), sizeof(Real), block_size_,
                                             memory_limit_);
    if (world_.Max(fits.ok() ? 0.0 : 1.0) > 0) {
      return AsUsageError(fits.ok() ? absl::ResourceExhaustedError(
                                          "under mpirun another rank would go beyond its memory "
                                          "limit (--max_model_memory_mb)")
                                    : fits);
    }
    if (absl::Status started =
            sync_.emplace(pipeline, clock_offset_, dealt_, gathers_only_).status();
        !started.ok()) {
      return started;
    }
    for (const auto& [setting, follows] :
         {std::pair{"ridge", pipeline.model().ridge_follower() != nullptr},
          std::pair{"gamma", pipeline.model().bandwidth_follower() != nullptr}}) {
      if (world_.Max(follows ? 1.0 : 0.0) > 0 && world_.Max(follows ? 0.0 : 1.0) > 0) {
        return AsUsageError(absl::InvalidArgumentError(absl::StrCat(
            "under mpirun every rank chooses the ", setting, " (--", setting,
            "=auto) or none does; this rank ",
            follows ? absl::StrCat("chooses it and another keeps a given --", setting)
                    : absl::StrCat("keeps a given --", setting, " and another chooses it"))));
      }
    }
    return absl::OkStatus();
  }

  // With --forget=auto, the changes every rank saw (for rank 0); else "".
  std::string DriftReport(const StreamPipeline<Real>& pipeline) const {
    const DriftTracker<Real>* drift = pipeline.model().drift();
    if (drift == nullptr) return "";  // then on every rank: the same task
    std::vector<std::int64_t> lines;
    for (const auto& change : drift->drifts()) lines.push_back(change.line);
    return RanksDriftReport(world_, lines, sync_->restarts());
  }

  const MpiWorld& world_;
  std::int64_t sync_every_;
  const bool sync_every_given_;
  const bool gathers_only_;
  const bool dealt_;
  const bool quiet_;
  const std::int64_t clock_offset_;
  const int block_size_;
  const double memory_limit_;  // bytes: --max_model_memory_mb's
  std::optional<InformationDeltaSync<Real>> sync_;  // once every rank holds the base
};

// A failure of this rank, named as its.
absl::Status OfRank(const MpiWorld& world, const absl::Status& status) {
  if (status.message().empty()) return status;
  absl::Status named(status.code(),
                     absl::StrCat("rank ", world.rank(), ": ", std::string(status.message())));
  return WithExitCode(std::move(named), ExitCodeOf(status));
}

template <class Real>
absl::Status RunRank(const StreamOptions& options, const MpiWorld& world, bool dealt) {
  std::optional<BasicCheckpoint<Real>> start;
  LineReader::Share share;  // files per rank: each its whole file
  // A line's clock is its place in the stream: its line number less the
  // header, after the samples a loaded model learned before.
  std::int64_t clock_offset = 0;
  if (dealt) {
    // The window's length in lines: rank 0 holds it (unless a model is
    // loaded, whose task also says whether there is a header).
    std::optional<Task> loaded_task;
    if (!options.checkpoint.load.empty()) {
      absl::StatusOr<BasicCheckpoint<Real>> loaded = LoadCheckpoint<Real>(options.checkpoint.load);
      if (!loaded.ok()) return AsIoFailure(loaded.status());
      loaded_task = loaded->record.task;
      clock_offset = -loaded->learner.samples_learned();
    }
    const int window = loaded_task.has_value()
                           ? 0
                           : WarmUpWindowLines(options.model, options.input_format.classes);
    const bool header =
        InputHasHeader(options.input_format, loaded_task.has_value() ? &*loaded_task : nullptr);
    clock_offset += header ? 1 : 0;
    share = {.shared_lines = header ? 1 : 0,
             .first_reader_lines = window,
             .readers = world.size(),
             .reader = world.rank()};
  }
  if (world.rank() != 0) {
    absl::StatusOr<BasicCheckpoint<Real>> base = ReceiveBase<Real>(world);
    if (!base.ok()) return base.status();
    // A rank launched with other model flags (mpirun's MPMD form) is named.
    if (absl::Status agrees = CheckOptionsAgreeWithModel(options.model, options.input_format,
                                                         base->learner.config(), base->record.task,
                                                         "rank 0");
        !agrees.ok()) {
      return AsUsageError(agrees);
    }
    start = WithoutMetrics(*std::move(base));
  }
  DistributedCoordinator<Real> coordinator(world, options, dealt, clock_offset);
  return RunLearnPart<Real>(options, share, std::move(start), coordinator);
}

}  // namespace

absl::Status RunDistributedLearn(StreamOptions options, const MpiWorld& world) {
  absl::Status status = ValidateStreamOptions(options, /*can_infer_dimension=*/true);
  if (status.ok()) status = ValidateDistributed(options, world.size());
  if (!status.ok()) {
    // Every rank finds the same, except for what depends on its own host
    // (--save's directory): stop them all either way.
    const absl::Status refused = OfRank(world, AsUsageError(status));
    ReportFailure("learn", refused);
    world.Abort(ExitCodeOf(refused));
  }
  const bool dealt = options.input.find(kRankPattern) == std::string::npos;
  options.input = ForRank(options.input, world.rank());
  options.output.predictions = ForRank(options.output.predictions, world.rank());
  // The ranks share the machine's cores already: threads only when asked for.
  if (!options.parallel.threads_given) options.parallel.threads = 1;
  if (world.rank() != 0) {
    options.output.quiet = true;      // rank 0 reports for all
    options.output.metrics_out.clear();
    options.checkpoint.save.clear();  // and saves the merged model
  }
  absl::StatusOr<int> real_bytes = ModelBytesPerNumber(options.model, options.checkpoint.load);
  const absl::Status ended = !real_bytes.ok()    ? AsUsageError(real_bytes.status())
                             : *real_bytes == 4 ? RunRank<float>(options, world, dealt)
                                                : RunRank<double>(options, world, dealt);
  // A rank that failed would leave the others waiting for it: stop them all.
  // (A rank told by rank 0 that there is no model leaves that to rank 0,
  // which says why first.)
  const bool rank_zero_stops = ended.code() == absl::StatusCode::kAborted && ended.message().empty();
  if (!ended.ok() && !rank_zero_stops) {
    const absl::Status failed = OfRank(world, ended);
    ReportFailure("learn", failed);
    world.Abort(ExitCodeOf(failed));
  }
  return ended;
}

}  // namespace rffstream::app
