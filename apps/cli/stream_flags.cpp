// The flags of learn and predict (and those serve shares with them), and the
// options of a stream command read from all the flags.
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "cli/flags.h"

ABSL_FLAG(std::string, input, "-", "CSV file to read; - reads standard input");
ABSL_FLAG(std::string, predictions, "",
          "write one line per input line (after the header) to FILE, - for standard "
          "output: the a-priori prediction (clipped per --clip_predictions), or an empty line for "
          "a blank or rejected line");
ABSL_FLAG(std::string, metrics_out, "",
          "write the learning curve to FILE as JSON lines: samples, progressive error so far and "
          "since the last row, r2 or accuracy, samples/s, elapsed seconds (rows at about 10 a "
          "decade of samples, or every --progress_every; plot: python3 -m rffstream.plot FILE)");
ABSL_FLAG(bool, quiet, false, "print no progress table or summary on standard error");
ABSL_FLAG(bool, strict, false, "stop with exit code 3 at the first malformed line");
ABSL_FLAG(int64_t, progress_every, 0,
          "print a progress row every N learned samples; 0 = at 1, 2, 4, 8, ...");
ABSL_FLAG(int, max_error_messages, 10,
          "print at most this many rejected-line messages (all are counted in the summary)");
ABSL_FLAG(int, block, 1,
          "learn labelled lines in blocks of k, each block's output written when it is full: "
          "one rank-k update (float64) or one sweep over the factor (float32 from D = 724), with "
          "the predictions and model of k = 1; k >= 1024 learns in bulk (one QR, at matrix-product "
          "speed; each line predicted with the model before its block)");
ABSL_FLAG(bool, variance, false,
          "write a second column: the predictive variance sigma^2 (1 + z'Pz), sigma^2 "
          "estimated online (nan, unknown, until the first sample is learned)");
ABSL_FLAG(bool, clip_predictions, true,
          "keep a regression's predictions within the range of the targets learned, widened by "
          "half its width on each side (false: the model's raw answers)");
ABSL_FLAG(bool, tune_report, false,
          "with --gamma=auto or --ridge=auto: print the leave-one-out error of every grid point "
          "the choice was made from");
ABSL_FLAG(std::string, load, "",
          "start from this checkpoint (model, counters and metrics); model flags that differ "
          "from it are an error");
ABSL_FLAG(std::string, save, "", "save a checkpoint to FILE at the end (atomically)");
ABSL_FLAG(int64_t, save_every, 0, "also save every N learned samples; 0 = off");
ABSL_FLAG(double, save_interval, 0, "also save every this many seconds; 0 = off");
ABSL_FLAG(int, threads, 0,
          "threads for each sample's work (float64: the O(D^2) pass over P, a block's matrix "
          "products; both precisions: a block's feature map and a bulk block's QR; float32 "
          "updates its factor one sample at a time on one thread); the same results with any "
          "number; 0 = as many as pay off: 1 below D = 512, else every core");
ABSL_FLAG(int64_t, sync_every, 0,
          "under mpirun: the ranks merge what they learned every N samples per rank and "
          "continue from the merged model; 0 = only at the end (default: 0, or with "
          "--rank_model=merged 8 times the features)");

ABSL_FLAG(std::string, rank_model, "own",
          "under mpirun, what a rank predicts with between merges: own = a model of its own "
          "that learns each of its lines (the model of the last merge plus its lines since); "
          "merged = the model of the last merge, while the rank only gathers its lines' "
          "information for the next (about twice the samples a second a rank; predictions up "
          "to --sync_every samples a rank old; needs --forget=1 or auto, and watches no drift)");

namespace rffstream::app {

absl::StatusOr<StreamOptions> StreamOptionsFromFlags() {
  StreamOptions options;
  options.input = absl::GetFlag(FLAGS_input);
  absl::StatusOr<InputOptions> input = InputOptionsFromFlags();
  if (!input.ok()) return input.status();
  options.input_format = *std::move(input);
  absl::StatusOr<ModelOptions> model = ModelOptionsFromFlags();
  if (!model.ok()) return model.status();
  options.model = *std::move(model);
  OutputOptions& output = options.output;
  output.predictions = absl::GetFlag(FLAGS_predictions);
  output.metrics_out = absl::GetFlag(FLAGS_metrics_out);
  output.quiet = absl::GetFlag(FLAGS_quiet);
  output.strict = absl::GetFlag(FLAGS_strict);
  output.progress_every = absl::GetFlag(FLAGS_progress_every);
  output.max_error_messages = absl::GetFlag(FLAGS_max_error_messages);
  output.block = absl::GetFlag(FLAGS_block);
  output.block_given = IsSetByUser(FLAGS_block);
  output.variance = absl::GetFlag(FLAGS_variance);
  output.clip_predictions = absl::GetFlag(FLAGS_clip_predictions);
  output.tune_report = absl::GetFlag(FLAGS_tune_report);
  CheckpointOptions& checkpoint = options.checkpoint;
  checkpoint.load = absl::GetFlag(FLAGS_load);
  checkpoint.save = absl::GetFlag(FLAGS_save);
  checkpoint.save_every = absl::GetFlag(FLAGS_save_every);
  checkpoint.save_interval = absl::GetFlag(FLAGS_save_interval);
  options.server = ServerOptionsFromFlags();
  options.parallel.sync_every = absl::GetFlag(FLAGS_sync_every);
  options.parallel.sync_every_given = IsSetByUser(FLAGS_sync_every);
  const std::string rank_model = absl::GetFlag(FLAGS_rank_model);
  if (rank_model != "own" && rank_model != "merged") {
    return absl::InvalidArgumentError(
        absl::StrCat("--rank_model must be own or merged, not ", rank_model));
  }
  options.parallel.ranks_gather_only = rank_model == "merged";
  options.parallel.threads = absl::GetFlag(FLAGS_threads);
  options.parallel.threads_given = IsSetByUser(FLAGS_threads);
  return options;
}

}  // namespace rffstream::app
