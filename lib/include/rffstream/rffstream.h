// File: rffstream/rffstream.h
//
// The umbrella header: everything a program embedding rffstream needs.
//
//   #include <rffstream/rffstream.h>
//
//   rffstream::LearnerConfig config;
//   config.features.input_dimension = 16;
//   absl::StatusOr<rffstream::Learner> learner = rffstream::Learner::Create(config);
//   double prior = learner->Learn(x, y);    // predict, then learn
//   double prediction = learner->Predict(x);
#ifndef RFFSTREAM_RFFSTREAM_H_
#define RFFSTREAM_RFFSTREAM_H_

#include "rffstream/bandwidth.h"
#include "rffstream/change_detector.h"
#include "rffstream/checkpoint.h"
#include "rffstream/classification_metrics.h"
#include "rffstream/csv_line_parser.h"
#include "rffstream/feature_map.h"
#include "rffstream/feature_map_config.h"
#include "rffstream/input_statistics.h"
#include "rffstream/json_export.h"
#include "rffstream/learner.h"
#include "rffstream/learner_config.h"
#include "rffstream/leave_one_out.h"
#include "rffstream/leverage_features.h"
#include "rffstream/libsvm_line_parser.h"
#include "rffstream/line_parser.h"
#include "rffstream/regression_metrics.h"
#include "rffstream/ridge_by_gcv.h"
#include "rffstream/rls.h"
#include "rffstream/simd.h"
#include "rffstream/task.h"
#include "rffstream/thread_pool.h"
#include "rffstream/version.h"
#include "rffstream/warm_up_tuning.h"

#endif  // RFFSTREAM_RFFSTREAM_H_
