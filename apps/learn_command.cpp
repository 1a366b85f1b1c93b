#include "learn_command.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "checkpoint_schedule.h"
#include "exit_codes.h"
#include "input_format.h"
#include "line_reader.h"
#include "model_flags.h"
#include "parse_ahead.h"
#include "parsed_line.h"
#include "prediction_writer.h"
#include "progress_table.h"
#include "rffstream/rffstream.h"
#include "target_column.h"

ABSL_FLAG(std::string, input, "-", "CSV file to read; - reads standard input");
ABSL_FLAG(bool, header, false, "the first line is a header row of column names");
ABSL_FLAG(std::string, target, "last",
          "target column: last, first, a 0-based index, or a name from the header; "
          "the other columns are the inputs. A line with an empty target field is "
          "predicted but not learned from");
ABSL_FLAG(std::string, predictions, "",
          "write one line per input line (after the header) to FILE, - for standard "
          "output: the a-priori prediction, or an empty line for a blank or rejected line");
ABSL_FLAG(bool, quiet, false, "print no progress table or summary on standard error");
ABSL_FLAG(bool, strict, false, "stop with exit code 3 at the first malformed line");
ABSL_FLAG(int64_t, progress_every, 0,
          "print a progress row every N learned samples; 0 = at 1, 2, 4, 8, ...");
ABSL_FLAG(int64_t, max_line_bytes, 1 << 20, "longer input lines are rejected");
ABSL_FLAG(int, max_error_messages, 10,
          "print at most this many rejected-line messages (all are counted in the summary)");
ABSL_FLAG(int, block, 1,
          "learn labelled lines in blocks of k with one rank-k update (same predictions and "
          "model as k = 1, higher throughput, each block's output written when it is full)");
ABSL_FLAG(bool, variance, false,
          "write a second column: the predictive variance sigma^2 (1 + z'Pz), sigma^2 "
          "estimated online");
ABSL_FLAG(std::string, load, "",
          "start from this checkpoint (model, counters and metrics); model flags that differ "
          "from it are an error");
ABSL_FLAG(std::string, save, "", "save a checkpoint to FILE at the end (atomically)");
ABSL_FLAG(int64_t, save_every, 0, "also save every N learned samples; 0 = off");
ABSL_FLAG(double, save_interval, 0, "also save every this many seconds; 0 = off");

namespace rffstream::app {
namespace {

// A parsed line kept while the standardization window fills.
struct PendingLine {
  std::int64_t line_number = 0;
  bool rejected = false;  // or blank: gives an empty output line
  bool labelled = false;
  std::vector<double> inputs;
  std::vector<double> targets;
};

absl::Status ValidateFlags() {
  if (absl::GetFlag(FLAGS_block) < 1) {
    return absl::InvalidArgumentError("--block must be >= 1");
  }
  if (absl::GetFlag(FLAGS_variance) && OutputsFromFlags() > 1) {
    return absl::InvalidArgumentError("--variance is for a single target");
  }
  if (absl::GetFlag(FLAGS_block) > 1 && absl::GetFlag(FLAGS_variance)) {
    return absl::InvalidArgumentError(
        "--variance needs each prediction before the next update: use it with --block=1");
  }
  if (absl::GetFlag(FLAGS_standardize) < 0) {
    return absl::InvalidArgumentError("--standardize must be >= 0");
  }
  if (absl::GetFlag(FLAGS_max_line_bytes) <= 0) {
    return absl::InvalidArgumentError("--max_line_bytes must be positive");
  }
  if (absl::GetFlag(FLAGS_progress_every) < 0) {
    return absl::InvalidArgumentError("--progress_every must be >= 0");
  }
  if (absl::GetFlag(FLAGS_save_every) < 0 || absl::GetFlag(FLAGS_save_interval) < 0) {
    return absl::InvalidArgumentError("--save_every and --save_interval must be >= 0");
  }
  if ((absl::GetFlag(FLAGS_save_every) > 0 || absl::GetFlag(FLAGS_save_interval) > 0) &&
      absl::GetFlag(FLAGS_save).empty()) {
    return absl::InvalidArgumentError("--save_every and --save_interval need --save=FILE");
  }
  if (absl::Status status = ValidateInputFormatFlags(/*can_infer_dimension=*/true); !status.ok()) {
    return status;
  }
  return ValidateModelFlags();
}

// One run over one input stream. Owns the parser and the learner, which are
// created once the first data line shows how many columns there are.
// Whether a run learns from its labelled lines, or only predicts (and scores).
enum class RunMode { kLearn, kPredict };

// One run over one input stream. Owns the parser and the learner; the learner
// comes from a checkpoint, or is created once the first data line shows how
// many columns there are (and the standardization window is full).
template <class Real>
class LearnRun {
 public:
  LearnRun(RunMode mode, PredictionWriter& writer, std::FILE* log, CheckpointSchedule schedule)
      : mode_(mode),
        writer_(writer),
        log_(log),
        quiet_(absl::GetFlag(FLAGS_quiet)),
        strict_(absl::GetFlag(FLAGS_strict)),
        standardize_lines_(absl::GetFlag(FLAGS_standardize)),
        warm_up_lines_(std::max(standardize_lines_, GammaFromWarmUp() ? kMedianHeuristicMaxRows : 0)),
        block_size_(mode == RunMode::kLearn ? absl::GetFlag(FLAGS_block) : 1),
        with_variance_(absl::GetFlag(FLAGS_variance)),
        num_classes_(absl::GetFlag(FLAGS_classes)),
        num_outputs_(OutputsFromFlags()),
        max_error_messages_(absl::GetFlag(FLAGS_max_error_messages)),
        schedule_(std::move(schedule)),
        classification_(std::max(num_classes_, 1)),
        progress_(log, absl::GetFlag(FLAGS_progress_every)),
        real_targets_(num_outputs_),
        priors_(num_outputs_),
        output_values_(num_outputs_) {}

  // Starts from a loaded model instead of a new one. Learning continues its
  // metrics too; predicting scores only the new lines.
  void Resume(BasicCheckpoint<Real> checkpoint, std::string source) {
    learner_.emplace(std::move(checkpoint.learner));
    feature_row_.assign(static_cast<std::size_t>(learner_->row_length()), Real{0});
    if (mode_ == RunMode::kLearn && num_classes_ == 0) {
      metrics_ = checkpoint.metrics;
      progress_.ContinueFrom(metrics_);
    }
    model_source_ = std::move(source);
    schedule_.MarkSaved(learner_->samples_learned());
  }

  // Returns the exit code.
  int Run(LineReader& reader, const std::string& input_name) {
    input_name_ = input_name;
    const bool has_header = absl::GetFlag(FLAGS_header);
    // The lines that decide the parser are read here; the rest are read and
    // parsed ahead on a thread of their own while this one learns.
    while (parser_ == nullptr) {
      std::optional<LineReader::Line> line = reader.Next();
      if (!line.has_value()) break;
      ++line_number_;
      if (has_header && line_number_ == 1) {
        if (!line->too_long) header_ = SplitCsvHeader(line->text, InputDelimiter());
        continue;
      }
      if (std::optional<int> exit_code = HandleLine(*line)) return *exit_code;
    }
    if (parser_ != nullptr) {
      ParseAhead<Real> parse_ahead(reader, *parser_, line_number_ + 1);
      parse_ahead_ = &parse_ahead;
      if (learner_.has_value()) parse_ahead.MapWith(*learner_);
      while (true) {
        // About to wait for input: whoever reads the predictions of a live
        // stream gets every one made so far.
        if (!parse_ahead.Ready()) writer_.Flush();
        const typename ParseAhead<Real>::Batch* batch = parse_ahead.Next();
        if (batch == nullptr) break;
        for (int i = 0; i < batch->size(); ++i) {
          line_number_ = batch->line(i).line_number;
          if (std::optional<int> exit_code = HandleParsed(batch->line(i), batch->inputs(i),
                                                          batch->feature_row(i), batch->targets(i))) {
            parse_ahead_ = nullptr;
            return *exit_code;
          }
        }
      }
      parse_ahead_ = nullptr;
    }
    if (!reader.status().ok()) {
      std::fprintf(log_, "rffstream: %s: %s\n", input_name_.c_str(),
                   std::string(reader.status().message()).c_str());
      return kExitIoError;
    }
    if (!undecided_lines_.empty()) {
      if (std::optional<int> exit_code = InferDimensionAndReplay()) return *exit_code;
    }
    if (!learner_.has_value() && !pending_.empty()) {
      if (std::optional<int> exit_code = StartLearner()) return *exit_code;
    }
    FlushBlock();
    if (absl::Status status = writer_.Close(); !status.ok()) {
      std::fprintf(log_, "rffstream: %s\n", std::string(status.message()).c_str());
      return kExitIoError;
    }
    if (!quiet_) PrintSummary();
    if (schedule_.enabled() && learner_.has_value() && !Save()) return kExitIoError;
    return kExitSuccess;
  }

 private:
  void PrintSummary() {
    const char* verb = mode_ == RunMode::kLearn ? "learned" : "scored";
    if (num_classes_ > 0) {
      progress_.Finish(classification_, line_number_, predicted_only_, rejected_, verb);
    } else {
      progress_.Finish(metrics_, line_number_, predicted_only_, rejected_, verb);
    }
    if (num_outputs_ > 1 && num_classes_ == 0) {
      target_metrics_[0] = metrics_;  // the first target's are kept in metrics_
      std::fprintf(log_, "rmse per target:");
      for (const RegressionMetrics& target : target_metrics_) {
        std::fprintf(log_, " %.6g", target.root_mean_squared_error());
      }
      std::fprintf(log_, " (the table shows the first)\n");
    }
    if (rejected_ > max_error_messages_) {
      std::fprintf(log_, "(%" PRId64 " rejected-line messages were not printed)\n",
                   rejected_ - max_error_messages_);
    }
  }

  // A line read before the parser is set up. nullopt to go on, or the exit
  // code to stop with.
  std::optional<int> HandleLine(const LineReader::Line& line) {
    if (parser_ == nullptr && !line.too_long && !IsBlankLine(line.text)) {
      if (InferLibsvmDimension() && !learner_.has_value()) {
        // Hold the lines back until the warm-up window shows the dimension.
        undecided_lines_.push_back({line_number_, std::string(line.text)});
        if (static_cast<int>(undecided_lines_.size()) < kDimensionWarmUpLines) return std::nullopt;
        return InferDimensionAndReplay();
      }
      if (std::optional<int> exit_code = StartParser(line.text)) return *exit_code;
    }
    return ParseAndHandle(line);
  }

  // Infers libsvm's dimension from the held-back lines, then handles them.
  std::optional<int> InferDimensionAndReplay() {
    std::vector<std::string> texts;
    for (const auto& [number, text] : undecided_lines_) texts.push_back(text);
    absl::StatusOr<std::unique_ptr<LineParser>> parser = MakeInferredLibsvmParser(texts);
    if (!parser.ok()) {
      std::fprintf(log_, "rffstream: %s: %s\n", input_name_.c_str(),
                   std::string(parser.status().message()).c_str());
      return kExitBadInput;
    }
    parser_ = *std::move(parser);
    SetUpBuffers();
    if (!quiet_) std::fprintf(log_, "libsvm dimension inferred: %d\n", parser_->num_inputs());
    const std::int64_t current_line = line_number_;
    std::vector<std::pair<std::int64_t, std::string>> lines = std::move(undecided_lines_);
    undecided_lines_.clear();
    for (const auto& [number, text] : lines) {
      line_number_ = number;  // messages name the line's own number
      if (std::optional<int> exit_code = ParseAndHandle(LineReader::Line{text, false})) {
        return exit_code;
      }
    }
    line_number_ = current_line;
    return std::nullopt;
  }

  // Parses a line on this thread (the parser exists, or the line gives no
  // numbers) and handles it.
  std::optional<int> ParseAndHandle(const LineReader::Line& line) {
    ParsedLine parsed;
    if (parser_ != nullptr) {
      ParseLine(*parser_, line, inputs_, targets_, parsed);
    } else {
      parsed.kind = line.too_long ? ParsedLine::Kind::kTooLong : ParsedLine::Kind::kBlank;
    }
    return HandleParsed(parsed, inputs_, {}, targets_);
  }

  // `feature_row` is the line's, or empty if it was not mapped yet. nullopt
  // to go on, or the exit code to stop with.
  std::optional<int> HandleParsed(const ParsedLine& parsed, std::span<const double> inputs,
                                  std::span<const Real> feature_row,
                                  std::span<const double> targets) {
    switch (parsed.kind) {
      case ParsedLine::Kind::kTooLong:
        return Reject(absl::StrCat("line longer than ", absl::GetFlag(FLAGS_max_line_bytes),
                                   " bytes (--max_line_bytes)"));
      case ParsedLine::Kind::kBlank:
        EmitEmptyLine();
        return std::nullopt;
      case ParsedLine::Kind::kMalformed:
        return Reject(parsed.error);
      case ParsedLine::Kind::kValues:
        break;
    }
    if (parsed.labelled && num_classes_ > 0) {
      const double label = targets[0];
      if (label != std::floor(label) || label < 0 || label >= num_classes_) {
        return Reject(absl::StrCat("class label ", label, " is not an integer in [0, ",
                                   num_classes_, ") (--classes)"));
      }
    }
    if (learner_.has_value()) {
      Process(inputs, feature_row, parsed.labelled, targets);
      return std::nullopt;
    }
    pending_.push_back(PendingLine{line_number_, false, parsed.labelled,
                                   std::vector<double>(inputs.begin(), inputs.end()),
                                   std::vector<double>(targets.begin(), targets.end())});
    if (static_cast<int>(pending_.size()) >= warm_up_lines_) return StartLearner();
    return std::nullopt;
  }

  void SetUpBuffers() {
    inputs_.assign(parser_->num_inputs(), 0.0);
    targets_.assign(parser_->num_targets(), 0.0);
    converted_inputs_.assign(parser_->num_inputs(), Real{0});
    target_metrics_.assign(num_outputs_, RegressionMetrics());
  }

  std::optional<int> StartParser(std::string_view first_data_line) {
    // Predicting with a model: a line of exactly its inputs has no target column.
    const int inputs_only =
        learner_.has_value() && mode_ == RunMode::kPredict ? learner_->input_dimension() : 0;
    absl::StatusOr<std::unique_ptr<LineParser>> parser =
        MakeLineParser(first_data_line, header_, inputs_only);
    if (!parser.ok()) {
      const bool usage = parser.status().code() == absl::StatusCode::kInvalidArgument;
      std::fprintf(log_, "rffstream: %s%s%s\n", usage ? "" : input_name_.c_str(),
                   usage ? "" : absl::StrCat(": line ", line_number_, ": ").c_str(),
                   std::string(parser.status().message()).c_str());
      return usage ? kExitUsageError : kExitBadInput;
    }
    parser_ = *std::move(parser);
    SetUpBuffers();
    if (learner_.has_value() && parser_->num_inputs() != learner_->input_dimension()) {
      std::fprintf(log_, "rffstream: %s: line %" PRId64 ": %d inputs, but the model from %s has %d\n",
                   input_name_.c_str(), line_number_, parser_->num_inputs(), model_source_.c_str(),
                   learner_->input_dimension());
      return kExitBadInput;
    }
    return std::nullopt;
  }

  std::optional<int> StartLearner() {
    absl::StatusOr<LearnerConfig> config = LearnerConfigFromFlags(parser_->num_inputs());
    if (!config.ok()) {
      std::fprintf(log_, "rffstream: %s\n", std::string(config.status().message()).c_str());
      return kExitUsageError;
    }
    if (standardize_lines_ > 0) {
      InputStatistics statistics(parser_->num_inputs());
      for (const PendingLine& pending : pending_) {
        if (!pending.rejected) statistics.Add(pending.inputs);
      }
      config->features.input_offset = statistics.Means();
      config->features.input_scale = statistics.StandardDeviations();
    }
    if (GammaFromWarmUp()) {
      std::vector<double> rows;
      for (const PendingLine& pending : pending_) {
        if (!pending.rejected) rows.insert(rows.end(), pending.inputs.begin(), pending.inputs.end());
      }
      absl::StatusOr<double> gamma =
          MedianHeuristicGamma(rows, parser_->num_inputs(), config->features.input_offset,
                               config->features.input_scale);
      if (!gamma.ok()) {
        std::fprintf(log_, "rffstream: --gamma=auto: %s\n", std::string(gamma.status().message()).c_str());
        return kExitBadInput;
      }
      config->features.gamma = *gamma;
      if (!quiet_) std::fprintf(log_, "gamma=auto: %.6g (median heuristic)\n", *gamma);
    }
    absl::StatusOr<BasicLearner<Real>> learner = BasicLearner<Real>::Create(*std::move(config));
    if (!learner.ok()) {
      std::fprintf(log_, "rffstream: %s\n", std::string(learner.status().message()).c_str());
      return kExitUsageError;
    }
    learner_.emplace(*std::move(learner));
    if (parse_ahead_ != nullptr) parse_ahead_->MapWith(*learner_);
    feature_row_.assign(static_cast<std::size_t>(learner_->row_length()), Real{0});
    for (const PendingLine& pending : pending_) {
      if (pending.rejected) {
        writer_.WriteEmptyLine();
      } else {
        Process(pending.inputs, {}, pending.labelled, pending.targets);
      }
    }
    pending_.clear();
    pending_.shrink_to_fit();
    return std::nullopt;
  }

  // The output line of a blank or rejected input line, now or in its turn.
  void EmitEmptyLine() {
    if (learner_.has_value()) {
      FlushBlock();  // output stays in input order
      writer_.WriteEmptyLine();
    } else {
      pending_.push_back(PendingLine{line_number_, /*rejected=*/true, false, {}, {}});
    }
  }

  // The model's targets for a labelled line: the values, or for a class c the
  // one-vs-rest vector (+1 at c, -1 elsewhere).
  void SetRealTargets(std::span<const double> targets) {
    if (num_classes_ > 0) {
      std::fill(real_targets_.begin(), real_targets_.end(), Real{-1});
      real_targets_[static_cast<int>(targets[0])] = Real{1};
    } else {
      std::copy(targets.begin(), targets.end(), real_targets_.begin());
    }
  }

  // Predicts (and learns from a labelled line) given the line's numbers and,
  // when the reading thread has mapped it already, its feature row.
  void Process(std::span<const double> parsed, std::span<const Real> mapped_row, bool labelled,
               std::span<const double> targets) {
    std::span<const Real> row = mapped_row;
    if (row.empty()) {
      std::copy(parsed.begin(), parsed.end(), converted_inputs_.begin());
      learner_->MapRow(converted_inputs_, feature_row_);
      row = feature_row_;
    }
    if (labelled) SetRealTargets(targets);
    if (labelled && block_size_ > 1) {
      block_rows_.insert(block_rows_.end(), row.begin(), row.end());
      block_targets_.insert(block_targets_.end(), real_targets_.begin(), real_targets_.end());
      block_labels_.insert(block_labels_.end(), targets.begin(), targets.end());
      if (static_cast<int>(block_labels_.size()) == block_size_ * parser_->num_targets()) {
        FlushBlock();
      }
      return;
    }
    FlushBlock();  // output stays in input order
    if (!labelled) ++predicted_only_;
    if (with_variance_) {
      const auto [prediction, variance] = learner_->PredictRowWithVariance(row);
      writer_.WriteValues({static_cast<double>(prediction), static_cast<double>(variance)});
      if (labelled) {
        if (mode_ == RunMode::kLearn) learner_->LearnRowOutputs(row, real_targets_, priors_);
        priors_[0] = prediction;
        Score(priors_, targets);
      }
      return;
    }
    if (labelled && mode_ == RunMode::kLearn) {
      learner_->LearnRowOutputs(row, real_targets_, priors_);
    } else {
      learner_->PredictRowOutputs(row, priors_);
    }
    WriteOutput(priors_);
    if (labelled) Score(priors_, targets);
  }

  static int Argmax(std::span<const Real> values) {
    return static_cast<int>(std::max_element(values.begin(), values.end()) - values.begin());
  }

  // The output line: the predicted class, or one prediction per target.
  void WriteOutput(std::span<const Real> predictions) {
    if (num_classes_ > 0) {
      writer_.WriteValues({static_cast<double>(Argmax(predictions))});
      return;
    }
    std::copy(predictions.begin(), predictions.end(), output_values_.begin());
    writer_.WriteValues(output_values_);
  }

  void Score(std::span<const Real> priors, std::span<const double> targets) {
    if (num_classes_ > 0) {
      classification_.Add(Argmax(priors), static_cast<int>(targets[0]));
      if (!quiet_) progress_.Update(classification_);
    } else {
      metrics_.Add(priors[0], targets[0]);
      for (int output = 1; output < num_outputs_; ++output) {
        target_metrics_[output].Add(priors[output], targets[output]);
      }
      if (!quiet_) progress_.Update(metrics_);
    }
    if (schedule_.Due(learner_->samples_learned())) Save();
  }

  // Learns the buffered labelled lines as one block and writes their output.
  void FlushBlock() {
    if (block_labels_.empty()) return;
    const std::size_t outputs = static_cast<std::size_t>(num_outputs_);
    const std::size_t labels = static_cast<std::size_t>(parser_->num_targets());
    block_priors_.resize(block_targets_.size());
    learner_->LearnRowBlock(block_rows_, block_targets_, block_priors_);
    for (std::size_t s = 0; s * outputs < block_priors_.size(); ++s) {
      const std::span<const Real> priors = std::span<const Real>(block_priors_).subspan(s * outputs, outputs);
      WriteOutput(priors);
      Score(priors, std::span<const double>(block_labels_).subspan(s * labels, labels));
    }
    block_rows_.clear();
    block_targets_.clear();
    block_labels_.clear();
  }

  // Saves the checkpoint now; a failure is reported and the run goes on.
  bool Save() {
    if (absl::Status status = SaveCheckpoint(schedule_.path(), *learner_, metrics_); !status.ok()) {
      std::fprintf(log_, "rffstream: %s\n", std::string(status.message()).c_str());
      return false;
    }
    schedule_.MarkSaved(learner_->samples_learned());
    return true;
  }

  std::optional<int> Reject(const std::string& reason) {
    ++rejected_;
    if (rejected_ <= max_error_messages_ || strict_) {
      std::fprintf(log_, "rffstream: %s: line %" PRId64 ": %s%s\n", input_name_.c_str(),
                   line_number_, reason.c_str(), strict_ ? "" : " (skipped)");
    }
    if (strict_) return kExitBadInput;
    EmitEmptyLine();
    return std::nullopt;
  }

  const RunMode mode_;
  PredictionWriter& writer_;
  std::FILE* log_;
  const bool quiet_;
  const bool strict_;
  const int standardize_lines_;
  const int warm_up_lines_;  // held back before the model exists (standardization, gamma=auto)
  const int block_size_;
  const bool with_variance_;
  const int num_classes_;  // 0: regression
  const int num_outputs_;
  const std::int64_t max_error_messages_;
  CheckpointSchedule schedule_;
  std::string input_name_;
  std::string model_source_;
  std::vector<std::string> header_;
  std::unique_ptr<LineParser> parser_;
  std::optional<BasicLearner<Real>> learner_;
  ParseAhead<Real>* parse_ahead_ = nullptr;  // while lines come from the reading thread
  std::vector<PendingLine> pending_;
  // libsvm lines held back while the dimension is inferred: number, text.
  std::vector<std::pair<std::int64_t, std::string>> undecided_lines_;
  RegressionMetrics metrics_;                      // of the first target
  std::vector<RegressionMetrics> target_metrics_;  // of every target; [0] copied for the summary
  ClassificationMetrics classification_;
  ProgressTable progress_;
  std::int64_t line_number_ = 0;
  std::int64_t predicted_only_ = 0;
  std::int64_t rejected_ = 0;
  // Per-line buffers, sized once.
  std::vector<double> inputs_;
  std::vector<double> targets_;
  std::vector<Real> converted_inputs_;  // the inputs in Real
  std::vector<Real> feature_row_;       // of a line the reading thread did not map
  std::vector<Real> real_targets_;
  std::vector<Real> priors_;
  std::vector<double> output_values_;
  // Labelled lines waiting for a full block: feature rows, model targets, labels.
  std::vector<Real> block_rows_;
  std::vector<Real> block_targets_;
  std::vector<double> block_labels_;
  std::vector<Real> block_priors_;
};

// Loads the checkpoint (if any), opens input and output, and runs.
template <class Real>
int RunWithPrecision(RunMode mode, const char* command) {
  const std::string load_path = absl::GetFlag(FLAGS_load);
  std::optional<BasicCheckpoint<Real>> checkpoint;
  if (!load_path.empty()) {
    absl::StatusOr<BasicCheckpoint<Real>> loaded = LoadCheckpoint<Real>(load_path);
    if (!loaded.ok()) {
      std::fprintf(stderr, "%s: %s\n", command, std::string(loaded.status().message()).c_str());
      return kExitIoError;
    }
    if (absl::Status status = CheckFlagsAgreeWithModel(loaded->learner.config(), load_path);
        !status.ok()) {
      std::fprintf(stderr, "%s: %s\n", command, std::string(status.message()).c_str());
      return kExitUsageError;
    }
    checkpoint.emplace(*std::move(loaded));
  }
  const std::string input_path = absl::GetFlag(FLAGS_input);
  int fd = STDIN_FILENO;
  if (input_path != "-") {
    fd = ::open(input_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      std::fprintf(stderr, "%s: cannot open input file %s: %s\n", command, input_path.c_str(),
                   std::strerror(errno));
      return kExitIoError;
    }
  }
  // predict exists to write predictions: to standard output unless told otherwise.
  const std::string predictions_flag = absl::GetFlag(FLAGS_predictions);
  const bool to_standard_output = mode == RunMode::kPredict && predictions_flag.empty();
  absl::StatusOr<PredictionWriter> writer =
      PredictionWriter::Open(to_standard_output ? std::string("-") : predictions_flag);
  if (!writer.ok()) {
    std::fprintf(stderr, "%s: %s\n", command, std::string(writer.status().message()).c_str());
    return kExitIoError;
  }
  LineReader reader(fd, static_cast<std::size_t>(absl::GetFlag(FLAGS_max_line_bytes)));
  CheckpointSchedule schedule(mode == RunMode::kLearn ? absl::GetFlag(FLAGS_save) : "",
                              absl::GetFlag(FLAGS_save_every),
                              absl::Seconds(absl::GetFlag(FLAGS_save_interval)));
  LearnRun<Real> run(mode, *writer, stderr, std::move(schedule));
  if (checkpoint.has_value()) run.Resume(*std::move(checkpoint), load_path);
  const int exit_code = run.Run(reader, input_path == "-" ? "stdin" : input_path);
  if (fd != STDIN_FILENO) ::close(fd);
  return exit_code;
}

int RunStream(RunMode mode) {
  const char* command = mode == RunMode::kLearn ? "rffstream learn" : "rffstream predict";
  if (absl::Status status = ValidateFlags(); !status.ok()) {
    std::fprintf(stderr, "%s: %s\n", command, std::string(status.message()).c_str());
    return kExitUsageError;
  }
  const std::string load_path = absl::GetFlag(FLAGS_load);
  if (mode == RunMode::kPredict && load_path.empty()) {
    std::fprintf(stderr, "%s: needs --load=FILE (the model to predict with)\n", command);
    return kExitUsageError;
  }
  // A checkpoint decides its own precision; --precision may only agree.
  int real_bytes = absl::GetFlag(FLAGS_precision) == "float32" ? 4 : 8;
  if (!load_path.empty()) {
    absl::StatusOr<int> stored = ReadCheckpointPrecision(load_path);
    if (!stored.ok()) {
      std::fprintf(stderr, "%s: %s\n", command, std::string(stored.status().message()).c_str());
      return kExitIoError;
    }
    if (IsSetByUser(FLAGS_precision) && *stored != real_bytes) {
      std::fprintf(stderr, "%s: flags conflict with the model loaded from %s: --precision=%s (the model has float%d)\n",
                   command, load_path.c_str(), absl::GetFlag(FLAGS_precision).c_str(), 8 * *stored);
      return kExitUsageError;
    }
    real_bytes = *stored;
  }
  return real_bytes == 4 ? RunWithPrecision<float>(mode, command)
                         : RunWithPrecision<double>(mode, command);
}

}  // namespace

int RunLearnCommand() { return RunStream(RunMode::kLearn); }

int RunPredictCommand() { return RunStream(RunMode::kPredict); }

}  // namespace rffstream::app
