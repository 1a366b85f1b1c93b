// File: apps/commands/ranks_reports.h
//
// Under mpirun, one report for the whole job: every rank's line counts and
// running metrics, summed into rank 0's model stage (whose summary prints
// them).
#ifndef RFFSTREAM_APPS_RANKS_REPORTS_H_
#define RFFSTREAM_APPS_RANKS_REPORTS_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "commands/mpi_world.h"
#include "front/learn_output.h"
#include "rffstream/stream/model_stage.h"

namespace rffstream::app {

// Every rank calls it (a gather). `dealt`: the ranks share one file (each
// read all its lines), rather than a file each.
template <class Real>
void MergeRanksReports(const MpiWorld& world, bool dealt, ModelStage<Real>& model,
                       RunTotals& totals) {
  const Task& task = model.task();
  const BasicCheckpoint<Real> mine = model.Snapshot();
  std::vector<double> row = {static_cast<double>(totals.lines_read),
                             static_cast<double>(totals.predicted_only),
                             static_cast<double>(totals.rejected)};
  std::vector<const RegressionMetrics*> regression = {&mine.record.metrics};
  for (const RegressionMetrics& target : mine.record.further_targets) regression.push_back(&target);
  for (const RegressionMetrics* metrics : regression) {
    const RegressionMetrics::State& state = metrics->state();
    row.insert(row.end(), {static_cast<double>(state.count), state.sum_squared_error,
                           state.sum_absolute_error, state.target_mean,
                           state.target_squared_deviations});
  }
  for (std::int64_t count : mine.record.classification.confusion_counts()) {
    row.push_back(static_cast<double>(count));
  }
  const std::vector<double> rows = world.Gather(row);
  // After the window: rank 0's answers after it, and every other rank's
  // (they had none).
  RegressionMetrics after = mine.record.warm_up.after;
  RunTotals all;
  CheckpointRecord record{task, RegressionMetrics(), ClassificationMetrics(task.num_classes)};
  record.further_targets.resize(mine.record.further_targets.size());
  std::vector<std::int64_t> confusion(mine.record.classification.confusion_counts().size(), 0);
  for (int rank = 0; rank < world.size(); ++rank) {
    const double* at = rows.data() + static_cast<std::size_t>(rank) * row.size();
    // Dealt shares: every rank read the whole file; own files: each its own.
    const auto lines = static_cast<std::int64_t>(at[0]);
    all.lines_read = dealt ? std::max(all.lines_read, lines) : all.lines_read + lines;
    all.predicted_only += static_cast<std::int64_t>(at[1]);
    all.rejected += static_cast<std::int64_t>(at[2]);
    at += 3;
    for (std::size_t target = 0; target < regression.size(); ++target, at += 5) {
      RegressionMetrics::State state;
      state.count = static_cast<std::int64_t>(at[0]);
      state.sum_squared_error = at[1];
      state.sum_absolute_error = at[2];
      state.target_mean = at[3];
      state.target_squared_deviations = at[4];
      (target == 0 ? record.metrics : record.further_targets[target - 1])
          .Merge(RegressionMetrics(state));
      if (target == 0 && rank != 0) after.Merge(RegressionMetrics(state));
    }
    for (std::int64_t& count : confusion) count += static_cast<std::int64_t>(*at++);
  }
  record.classification = ClassificationMetrics(task.num_classes, std::move(confusion));
  record.warm_up = mine.record.warm_up;  // rank 0's window: the others had none
  record.warm_up.after = after;
  model.SetMetrics(record);
  totals = all;
}

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_RANKS_REPORTS_H_
