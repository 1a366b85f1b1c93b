// File: apps/server/serve_session.h
//
// What `serve` makes of the lines its clients send: data lines go through
// the stream pipeline (every client's lines into the one model, in arrival
// order) and control lines ('!ping', '!stats', '!save') are answered here.
// Every line gets one answer line: the prediction (one per target,
// comma-separated, and the variance with --variance), the class of a
// classifier, "warming up (k of N)" while the warm-up window fills, or
// "error: ..." (escaped); a bad line is never learned. The complete
// labelled lines of one read are learned as one exact block when blocks are
// on.
#ifndef RFFSTREAM_APPS_SERVE_SESSION_H_
#define RFFSTREAM_APPS_SERVE_SESSION_H_

#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "rffstream/stream/line_outcome.h"
#include "server/line_server.h"
#include "server/model_follower.h"
#include "core/file_identity.h"
#include "core/options.h"
#include "rffstream/checkpoint.h"
#include "rffstream/stream/stream_pipeline.h"

namespace rffstream::app {

// Whether serve learns in blocks, and how many lines a block holds at most
// (1: one at a time). Blocks are exact with β = 1, and on by default in
// float64, where they are one Woodbury update; float32's square-root engine
// learns a block one sample at a time (rls.h), so there a block gains
// nothing and is used only when asked for with --block=k > 1. --variance
// needs each prediction before the next update.
int ServeBlockSize(const StreamOptions& options, int bytes_per_number);

template <class Real>
class ServeSession : public OutcomeSink {
 public:
  ServeSession(const StreamOptions& options, std::FILE* log);

  [[nodiscard]] absl::Status Resume(BasicCheckpoint<Real> checkpoint, std::string source) {
    return pipeline_.Resume(std::move(checkpoint), std::move(source));
  }
  void set_server(const LineServer* server) { server_ = server; }

  // The complete lines of one read; their answers, in order, to `output`,
  // until it holds `output_budget` bytes: returns the lines answered.
  std::size_t HandleLines(std::span<const std::string_view> lines, std::string& output,
                          std::size_t output_budget);

  // SIGHUP: a checkpoint now (with --save), reported in the log; serving
  // goes on.
  void SaveOnHangup();

  // The server is stopping: a model still warming up is built from the
  // lines there are (as learn does at the end of a short input) and saved
  // when --save asks.
  [[nodiscard]] absl::Status Stop();

  bool Take(const LineOutcome& outcome) override;
  void Note(std::string_view lines) override { std::fwrite(lines.data(), 1, lines.size(), log_); }

 private:
  absl::Status Save();
  std::string Control(std::string_view command);
  void AppendError(std::string_view message);

  const std::string save_path_;
  std::FILE* log_;
  StreamPipeline<Real> pipeline_;
  const LineServer* server_ = nullptr;
  std::int64_t lines_ = 0;  // data lines received, all clients
  std::string* output_ = nullptr;  // of the read being answered
  std::optional<ModelFollower<Real>> follower_;  // --follow
  // The model's sample count at the last save (-1: none yet) and the file it
  // wrote, so that repeated !save requests on an unchanged model write
  // nothing while that file is still there.
  std::int64_t saved_samples_ = -1;
  FileIdentity saved_file_;
};

extern template class ServeSession<float>;
extern template class ServeSession<double>;

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_SERVE_SESSION_H_
