// File: apps/server/stats_answer.h
//
// serve's answer to !stats: the running metrics (and the warm-up window's
// part of them), the changes detected, the settings now and how often they
// were chosen again, the confusions of a classifier; one line whatever the
// stream's length or the number of classes.
#ifndef RFFSTREAM_APPS_STATS_ANSWER_H_
#define RFFSTREAM_APPS_STATS_ANSWER_H_

#include <string>

#include "rffstream/stream/model_stage.h"

namespace rffstream::app {

// The answer for `model`, with `connections` (" connections 3 accepted 9",
// and a replica's model) at its end.
template <class Real>
std::string StatsAnswer(const ModelStage<Real>& model, const std::string& connections);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_STATS_ANSWER_H_
