// File: apps/front/learn_output.h
//
// What `learn` and `predict` make of the pipeline's outcomes: one output
// line per input line (the answer, or an empty line for a blank or bad
// one), a message for each bad line (the first few), the progress table as
// labelled lines are scored, and the summary at the end; the learning
// curve for --metrics_out and, reading a file on a terminal, a progress line.
#ifndef RFFSTREAM_APPS_LEARN_OUTPUT_H_
#define RFFSTREAM_APPS_LEARN_OUTPUT_H_

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "rffstream/stream/line_outcome.h"
#include "front/metrics_log.h"
#include "rffstream/stream/model_stage.h"
#include "core/options.h"
#include "front/prediction_writer.h"
#include "core/printable_text.h"
#include "front/progress_line.h"
#include "front/progress_table.h"
#include "front/rejection_causes.h"

namespace rffstream::app {

// What a run went through: lines read, answered without a label, rejected.
struct RunTotals {
  std::int64_t lines_read = 0;
  std::int64_t predicted_only = 0;
  std::int64_t rejected = 0;
};

template <class Real>
class LearnOutput : public OutcomeSink {
 public:
  LearnOutput(PredictionWriter& writer, std::FILE* log, const OutputOptions& options,
              std::string input_name, MetricsLog metrics_log, ProgressLine progress_line)
      : writer_(writer),
        log_(log),
        options_(options),
        input_name_(std::move(input_name)),
        progress_(log, options.progress_every),
        metrics_log_(std::move(metrics_log)),
        progress_line_(progress_line) {}

  // The model stage whose metrics the progress table shows.
  void Watch(const ModelStage<Real>& model) { model_ = &model; }

  // The model came from a checkpoint (learn or predict --load).
  void ModelLoaded() { rejection_causes_.set_model_loaded(); }

  // A resumed run's table goes on from the loaded metrics.
  void ContinueProgress() {
    if (model_->task().is_classifier()) {
      progress_.ContinueFrom(model_->classification());
      metrics_log_.ContinueFrom(model_->classification());
    } else {
      progress_.ContinueFrom(model_->metrics());
      metrics_log_.ContinueFrom(model_->metrics());
    }
  }

  void WarmUpEnded() override {
    MarkEvent(MetricsLog::Event::kWarmUpEnd);
  }

  void Note(std::string_view lines) override {
    std::fwrite(lines.data(), 1, lines.size(), log_);
  }

  bool Take(const LineOutcome& outcome) override {
    switch (outcome.kind) {
      case LineOutcome::Kind::kAnswer:
        writer_.WriteValues(outcome.values);
        if (outcome.scored) UpdateProgress();
        progress_line_.Update(++answered_);
        return true;
      case LineOutcome::Kind::kHeld:
        return true;
      case LineOutcome::Kind::kBlank:
        writer_.WriteEmptyLine();
        return true;
      case LineOutcome::Kind::kBad:
        break;
    }
    ++rejected_;
    rejection_causes_.Add(outcome.line_number, outcome.reason);
    if (rejected_ <= options_.max_error_messages || options_.strict) {
      progress_line_.Clear();
      std::fprintf(log_, "rffstream: %s: line %" PRId64 ": %s%s\n", input_name_.c_str(),
                   outcome.line_number, EscapeForLog(outcome.reason).c_str(),
                   options_.strict ? "" : " (skipped)");
    }
    if (options_.strict) return false;
    writer_.WriteEmptyLine();
    return true;
  }

  // This run's own counts (a data-parallel run reports every process's).
  RunTotals Totals(std::int64_t lines_read) const {
    return {lines_read, model_->predicted_only(), rejected_};
  }

  // Lines answered with a prediction in this run.
  std::int64_t answered() const { return answered_; }

  // Before a message on standard error.
  void ClearProgressLine() { progress_line_.Clear(); }

  // The last row of --metrics_out; names the file if writing it failed.
  [[nodiscard]] absl::Status FinishMetricsLog() {
    progress_line_.Clear();
    return model_->task().is_classifier() ? metrics_log_.Finish(model_->classification())
                                          : metrics_log_.Finish(model_->metrics());
  }

  void PrintSummary(const RunTotals& totals, const char* scored_verb) {
    const ModelStage<Real>& model = *model_;
    if (model.task().is_classifier()) {
      progress_.Finish(model.classification(), totals.lines_read, totals.predicted_only,
                       totals.rejected, scored_verb);
    } else {
      progress_.Finish(model.metrics(), totals.lines_read, totals.predicted_only, totals.rejected,
                       scored_verb);
    }
    PrintWarmUpPart();
    if (const BandwidthFollower<Real>* follower = model_->bandwidth_follower()) {
      PrintSettingChanges("gamma", follower->changes());
      PrintStandardizations(follower->standardizations());
    }
    if (const RidgeFollower<Real>* follower = model_->ridge_follower()) {
      PrintSettingChanges("ridge", follower->changes());
    }
    PrintDrifts();
    if (const BasicLearner<Real>* learner = model.learner();
        learner != nullptr && learner->config().loss == Loss::kHinge &&
        learner->samples_learned() > 0) {
      std::fprintf(log_,
                   "hinge loss: %" PRId64 " updates (outputs inside their margin) over %" PRId64
                   " samples learned, %.2f a sample\n",
                   learner->updates(), learner->samples_learned(),
                   static_cast<double>(learner->updates()) /
                       static_cast<double>(learner->samples_learned()));
    }
    if (model.task().num_outputs() > 1 && !model.task().is_classifier()) {
      std::fprintf(log_, "rmse per target:");
      for (const RegressionMetrics& target : model.target_metrics()) {
        std::fprintf(log_, " %.6g", target.root_mean_squared_error());
      }
      std::fprintf(log_, " (the table shows the first)\n");
    }
    if (totals.rejected > options_.max_error_messages) {
      std::fprintf(log_, "(%" PRId64 " rejected-line messages were not printed)\n",
                   totals.rejected - options_.max_error_messages);
    }
    rejection_causes_.Print(log_);
  }

 private:
  void MarkEvent(MetricsLog::Event event) {
    if (model_->task().is_classifier()) {
      metrics_log_.MarkEvent(model_->classification(), event);
    } else {
      metrics_log_.MarkEvent(model_->metrics(), event);
    }
  }

  // What --gamma=auto and --ridge=auto chose as the model grew
  // (bandwidth_follower.h, ridge_follower.h).
  void PrintSettingChanges(const char* setting, const std::vector<SettingChange>& changes) {
    if (changes.empty()) return;
    std::fprintf(log_, "%s (--%s=auto) re-chosen by generalized cross-validation:", setting,
                 setting);
    for (const SettingChange& change : changes) {
      const std::string on = change.samples == 0 ? std::string("drift restart")
                                                 : absl::StrCat(change.samples, " samples");
      std::fprintf(log_, "%sline %" PRId64 " (%s) %g -> %g", &change == &changes.front() ? " " : "; ",
                   change.line, on.c_str(), change.from, change.to);
    }
    std::fprintf(log_, "\n");
  }

  // The standardizations chosen anew on the lines since drift restarts.
  void PrintStandardizations(const std::vector<SettingChange>& changes) {
    if (changes.empty()) return;
    std::fprintf(log_, "standardization re-chosen on the lines since the drift restart:");
    for (const SettingChange& change : changes) {
      std::fprintf(log_, "%sline %" PRId64 " (%" PRId64 " samples, scales moved up to x%.3g)",
                   &change == &changes.front() ? " " : "; ", change.line, change.samples,
                   change.to);
    }
    std::fprintf(log_, "\n");
  }

  // What --forget=auto saw: the changes, and the memory the model has now.
  void PrintDrifts() {
    const DriftTracker<Real>* drift = model_->drift();
    if (drift == nullptr) return;
    std::fprintf(log_, "drift (--forget=auto): %zu change%s detected", drift->drifts().size(),
                 drift->drifts().size() == 1 ? "" : "s");
    constexpr std::size_t kShown = 10;
    for (std::size_t i = 0; i < drift->drifts().size() && i < kShown; ++i) {
      const typename DriftTracker<Real>::Drift& change = drift->drifts()[i];
      std::fprintf(log_, "%s line %" PRId64 " (errors x%.1f)", i == 0 ? ":" : ",", change.line,
                   change.size);
    }
    std::fprintf(log_, "%s; the model's memory: the last %" PRId64 " lines learned\n",
                 drift->drifts().size() > kShown ? ", ..." : "", drift->lines_since_restart());
    if (drift->declined_alarms() > 0) {
      std::fprintf(log_,
                   "drift: %" PRId64 " alarm%s declined (a model learned anew on the lines since the "
                   "errors rose did far worse on them than this one)\n",
                   drift->declined_alarms(), drift->declined_alarms() == 1 ? "" : "s");
    }
  }

  // The scores above split at the end of the warm-up window, whose lines
  // a provisional model answered while the settings were chosen.
  void PrintWarmUpPart() {
    const ModelStage<Real>& model = *model_;
    const char* part = "of which the warm-up window (answered by a provisional model)";
    const WarmUpScores& window = model.warm_up();
    if (model.task().is_classifier()) {
      const ClassificationMetrics& all = model.classification();
      if (window.classified == 0 || window.classified == all.count()) return;
      const std::int64_t after = all.count() - window.classified;
      std::fprintf(log_, "%s: %" PRId64 " lines, accuracy %.4f; after it: %" PRId64
                   " lines, accuracy %.4f\n", part, window.classified, window.accuracy(), after,
                   static_cast<double>(all.correct() - window.classified_right) /
                       static_cast<double>(after));
      return;
    }
    const RegressionMetrics& after = model.after_warm_up();
    if (window.regression.count() == 0 || after.count() == 0) return;
    std::fprintf(log_, "%s: %" PRId64 " lines, rmse %.6g; after it: %" PRId64 " lines, rmse %.6g\n",
                 part, window.regression.count(), window.regression.root_mean_squared_error(),
                 after.count(), after.root_mean_squared_error());
  }

  void UpdateProgress() {
    const bool classifier = model_->task().is_classifier();
    const std::int64_t count =
        classifier ? model_->classification().count() : model_->metrics().count();
    if (!options_.quiet && progress_.RowDueAt(count)) {
      progress_line_.Clear();
      if (classifier) {
        progress_.Update(model_->classification());
      } else {
        progress_.Update(model_->metrics());
      }
    }
    const bool warm_up = model_->learner() == nullptr;  // the provisional model answers
    const DriftTracker<Real>* drift = model_->drift();
    const bool drifted = drift != nullptr && drift->drifts().size() > drifts_logged_;
    if (drifted) drifts_logged_ = drift->drifts().size();
    if (drifted) MarkEvent(MetricsLog::Event::kDrift);
    if (classifier) {
      metrics_log_.Update(model_->classification(), warm_up);
    } else {
      metrics_log_.Update(model_->metrics(), warm_up);
    }
  }

  PredictionWriter& writer_;
  std::FILE* log_;
  const OutputOptions options_;
  const std::string input_name_;
  ProgressTable progress_;
  std::size_t drifts_logged_ = 0;  // the changes --metrics_out has marked
  RejectionCauses rejection_causes_;
  MetricsLog metrics_log_;
  ProgressLine progress_line_;
  const ModelStage<Real>* model_ = nullptr;
  std::int64_t rejected_ = 0;
  std::int64_t answered_ = 0;
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_LEARN_OUTPUT_H_
