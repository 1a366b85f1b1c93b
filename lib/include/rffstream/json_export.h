// File: rffstream/json_export.h
//
// A readable JSON description of a learned model, enough for another program
// to reproduce its predictions without rffstream:
//
//   prediction(x) = intercept_weight
//                 + Σ_i weights[i] · scale · cos(frequencies[i]·x + phases[i])      (phase map)
//
//   prediction(x) = intercept_weight
//                 + Σ_i weights[i]     · scale · cos(frequencies[i]·x + phases[i])
//                 + Σ_i weights[m + i] · scale · sin(frequencies[i]·x + phases[i])  (pair map,
//                                                              m = number of frequencies)
//
// With several outputs, "weights" and "intercept_weight" hold one entry per
// output, each used as above. "intercept_weight" includes the targets'
// offsets (Task::target_offsets) when a task is given.
// x is the raw input: any input standardization is already folded into
// "frequencies" and "phases" ("input_offset"/"input_scale" are informational).
// Numbers are written with 17 significant digits, so they read back exactly.
#ifndef RFFSTREAM_JSON_EXPORT_H_
#define RFFSTREAM_JSON_EXPORT_H_

#include <ostream>

#include "rffstream/learner.h"
#include "rffstream/target_range.h"
#include "rffstream/task.h"

namespace rffstream {

struct JsonExportOptions {
  // Also write P, the D×D inverse information matrix (large: D² numbers;
  // with the hinge loss an array of one P per output).
  bool include_covariance = false;
  // When given, "input" says how x is made from a line of the task's
  // columns: their order, the text (category) columns' hashed buckets, and
  // what a missing value becomes.
  const Task* task = nullptr;
  // When given, known and not empty, "target_range": per output [low, high], the
  // targets learned; `rffstream` keeps a regression's predictions within
  // [low - w/2, high + w/2], w = high - low (rffstream/target_range.h).
  const TargetRange* target_range = nullptr;
};

template <class Real>
void ExportJson(const BasicLearner<Real>& learner, std::ostream& out,
                const JsonExportOptions& options = {});

}  // namespace rffstream

#endif  // RFFSTREAM_JSON_EXPORT_H_
