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
#include "printable_text.h"
#include "progress_table.h"
#include "rffstream/rffstream.h"
#include "task_outputs.h"
#include "warm_up.h"

ABSL_FLAG(std::string, input, "-", "CSV file to read; - reads standard input");
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
          "estimated online (nan, unknown, until the first sample is learned)");
ABSL_FLAG(bool, tune_report, false,
          "with --gamma=auto or --ridge=auto: print the leave-one-out error of every grid point "
          "the choice was made from");
ABSL_FLAG(std::string, load, "",
          "start from this checkpoint (model, counters and metrics); model flags that differ "
          "from it are an error");
ABSL_FLAG(std::string, save, "", "save a checkpoint to FILE at the end (atomically)");
ABSL_FLAG(int64_t, save_every, 0, "also save every N learned samples; 0 = off");
ABSL_FLAG(double, save_interval, 0, "also save every this many seconds; 0 = off");

namespace rffstream::app {
namespace {


absl::Status ValidateFlags() {
  if (absl::GetFlag(FLAGS_block) < 1) {
    return absl::InvalidArgumentError("--block must be >= 1");
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
  // A checkpoint that cannot be written is found out now, not after hours of learning.
  if (const std::string save = absl::GetFlag(FLAGS_save); !save.empty()) {
    if (absl::Status usable = CheckCheckpointPath(save); !usable.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--save: ", usable.message()));
    }
  }
  if (absl::Status status = ValidateInputFormatFlags(/*can_infer_dimension=*/true); !status.ok()) {
    return status;
  }
  return ValidateModelFlags();
}

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
        warm_up_lines_(WarmUpWindowLines(absl::GetFlag(FLAGS_classes))),
        block_size_(mode == RunMode::kLearn ? absl::GetFlag(FLAGS_block) : 1),
        with_variance_(absl::GetFlag(FLAGS_variance)),
        tune_report_(absl::GetFlag(FLAGS_tune_report)),
        max_error_messages_(absl::GetFlag(FLAGS_max_error_messages)),
        schedule_(std::move(schedule)),
        progress_(log, absl::GetFlag(FLAGS_progress_every)) {}

  // Starts from a loaded model and its task instead of a new one. Learning
  // continues its metrics too; predicting scores only the new lines.
  int Resume(BasicCheckpoint<Real> checkpoint, std::string source) {
    if (std::optional<int> exit_code = SetTask(checkpoint.record.task)) return *exit_code;
    learner_.emplace(std::move(checkpoint.learner));
    feature_row_.assign(static_cast<std::size_t>(learner_->row_length()), Real{0});
    if (mode_ == RunMode::kLearn) {
      metrics_ = checkpoint.record.metrics;
      if (task_.is_classifier()) classification_ = std::move(checkpoint.record.classification);
      if (task_.is_classifier()) {
        progress_.ContinueFrom(classification_);
      } else {
        progress_.ContinueFrom(metrics_);
      }
    }
    model_source_ = std::move(source);
    schedule_.MarkSaved(learner_->samples_learned());
    return kExitSuccess;
  }

  // Returns the exit code.
  int Run(LineReader& reader, const std::string& input_name) {
    input_name_ = input_name;
    const bool has_header = InputHasHeader(learner_.has_value() ? &task_ : nullptr);
    // The lines that decide the parser are read here; the rest are read and
    // parsed ahead on a thread of their own while this one learns.
    while (parser_ == nullptr) {
      std::optional<LineReader::Line> line = reader.Next();
      if (!line.has_value()) break;
      ++line_number_;
      if (line_number_ == 1) line->text = WithoutByteOrderMark(line->text);
      if (has_header && line_number_ == 1) {
        if (std::optional<int> exit_code = ReadHeader(*line)) return *exit_code;
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
        // Whoever read the output has gone (`| head`): stop like a Unix filter.
        if (writer_.reader_gone()) break;
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
    // (A reader stopped because the output's reader went away is no error.)
    if (!reader.status().ok() && !writer_.reader_gone()) {
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
    if (std::optional<int> exit_code = FlushBlock()) return *exit_code;
    if (absl::Status status = writer_.Close(); !status.ok() && !writer_.reader_gone()) {
      std::fprintf(log_, "rffstream: %s\n", std::string(status.message()).c_str());
      return kExitIoError;
    }
    if (!quiet_) PrintSummary();
    if (schedule_.enabled() && learner_.has_value() && !Save()) return kExitIoError;
    return kExitSuccess;
  }

 private:
  // Sets what the model learns; sizes the per-line buffers for it.
  std::optional<int> SetTask(const Task& task) {
    if (with_variance_ && task.num_outputs() > 1) {
      std::fprintf(log_, "rffstream: --variance is for a single regression target; the model has %d outputs\n",
                   task.num_outputs());
      return kExitUsageError;
    }
    task_ = task;
    classification_ = ClassificationMetrics(task_.num_classes);
    const auto outputs = static_cast<std::size_t>(task_.num_outputs());
    real_targets_.assign(outputs, Real{0});
    priors_.assign(outputs, Real{0});
    output_values_.assign(outputs, 0.0);
    target_metrics_.assign(outputs, RegressionMetrics());
    return std::nullopt;
  }

  std::optional<int> ReadHeader(const LineReader::Line& line) {
    if (line.too_long) return std::nullopt;
    header_ = SplitCsvHeader(line.text, learner_.has_value() ? FieldDelimiter() : InputDelimiter());
    if (learner_.has_value()) {
      if (absl::Status matches = CheckHeaderMatchesTask(header_, task_); !matches.ok()) {
        std::fprintf(log_, "rffstream: %s: line 1: %s\n", input_name_.c_str(),
                     std::string(matches.message()).c_str());
        return kExitBadInput;
      }
    } else if (std::optional<std::string> repeated = RepeatedName(header_)) {
      std::fprintf(log_, "rffstream: %s: warning: the header names more than one column '%s'\n",
                   input_name_.c_str(), repeated->c_str());
    }
    return std::nullopt;
  }

  static std::optional<std::string> RepeatedName(const std::vector<std::string>& names) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (std::find(names.begin() + i + 1, names.end(), names[i]) != names.end()) return names[i];
    }
    return std::nullopt;
  }

  void PrintSummary() {
    const char* verb = mode_ == RunMode::kLearn ? "learned" : "scored";
    if (task_.is_classifier()) {
      progress_.Finish(classification_, line_number_, predicted_only_, rejected_, verb);
    } else {
      progress_.Finish(metrics_, line_number_, predicted_only_, rejected_, verb);
    }
    if (task_.num_outputs() > 1 && !task_.is_classifier()) {
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
      absl::StatusOr<bool> started = StartParser(line.text);
      if (!started.ok()) return Reject(std::string(started.status().message()));
      if (!*started) return exit_code_;
    }
    return ParseAndHandle(line);
  }

  // Infers libsvm's dimension from the held-back lines, then handles them.
  std::optional<int> InferDimensionAndReplay() {
    std::vector<std::string> texts;
    for (const auto& [number, text] : undecided_lines_) texts.push_back(text);
    absl::StatusOr<int> dimension = InferredLibsvmDimension(texts);
    absl::StatusOr<Task> task =
        dimension.ok() ? TaskFromFlags("", {}, *dimension) : absl::StatusOr<Task>(dimension.status());
    if (!task.ok()) {
      std::fprintf(log_, "rffstream: %s: %s\n", input_name_.c_str(),
                   std::string(task.status().message()).c_str());
      return kExitBadInput;
    }
    if (std::optional<int> exit_code = SetTask(*task)) return exit_code;
    SetUpParser(task_.MakeLineParser());
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
        return EmitEmptyLine();
      case ParsedLine::Kind::kMalformed:
        return Reject(parsed.error);
      case ParsedLine::Kind::kValues:
        break;
    }
    if (parsed.labelled) {
      if (std::optional<std::string> invalid = InvalidClassLabel(task_, targets[0])) {
        return Reject(*invalid);
      }
    }
    if (learner_.has_value()) return Process(inputs, feature_row, parsed.labelled, targets);
    pending_.push_back(WarmUpLine{line_number_, false, parsed.labelled,
                                   std::vector<double>(inputs.begin(), inputs.end()),
                                   std::vector<double>(targets.begin(), targets.end())});
    // The window counts data lines only (as serve's does): blank and bad
    // lines keep their place in the output but not in the window.
    if (++window_data_lines_ >= warm_up_lines_) return StartLearner();
    return std::nullopt;
  }

  void SetUpParser(std::unique_ptr<LineParser> parser) {
    parser_ = std::move(parser);
    inputs_.assign(parser_->num_inputs(), 0.0);
    targets_.assign(parser_->num_targets(), 0.0);
    converted_inputs_.assign(parser_->num_inputs(), Real{0});
  }

  // Sets up the parser from the first data line: the loaded model's task,
  // or a new task from the flags. Returns true when set up, false after a
  // fatal error (reported), or an error for a bad first line that the next
  // line may replace.
  absl::StatusOr<bool> StartParser(std::string_view first_data_line) {
    if (learner_.has_value()) {
      const int fields = task_.format == InputFormat::kLibsvm
                             ? task_.num_fields
                             : CountCsvFields(first_data_line, FieldDelimiter());
      // A line of exactly the model's inputs has no target column: predict it.
      const bool inputs_only = mode_ == RunMode::kPredict && fields != task_.num_fields &&
                               fields == task_.num_inputs();
      if (fields != task_.num_fields && !inputs_only) {
        std::fprintf(log_,
                     "rffstream: %s: line %" PRId64 ": %d fields, but the model from %s reads "
                     "lines of %d (%d inputs, %d target columns, %zu ignored)\n",
                     input_name_.c_str(), line_number_, fields, model_source_.c_str(),
                     task_.num_fields, task_.num_inputs(), task_.num_targets(),
                     task_.ignored_columns.size());
        exit_code_ = kExitBadInput;
        return false;
      }
      SetUpParser(task_.MakeLineParser(inputs_only));
      return true;
    }
    absl::StatusOr<Task> task = TaskFromFlags(first_data_line, header_, 0);
    if (!task.ok() && task.status().code() == absl::StatusCode::kOutOfRange) return task.status();
    if (!task.ok()) {
      const bool usage = task.status().code() == absl::StatusCode::kInvalidArgument;
      std::fprintf(log_, "rffstream: %s%s%s\n", usage ? "" : input_name_.c_str(),
                   usage ? "" : absl::StrCat(": line ", line_number_, ": ").c_str(),
                   std::string(task.status().message()).c_str());
      exit_code_ = usage ? kExitUsageError : kExitBadInput;
      return false;
    }
    if (std::optional<int> exit_code = SetTask(*task)) {
      exit_code_ = *exit_code;
      return false;
    }
    SetUpParser(task_.MakeLineParser());
    return true;
  }

  char FieldDelimiter() const {
    return task_.format == InputFormat::kDense ? CsvLineParser::kWhitespace : task_.delimiter;
  }

  std::optional<int> StartLearner() {
    absl::StatusOr<LearnerConfig> config =
        LearnerConfigFromFlags(task_.num_inputs(), task_.num_outputs());
    if (!config.ok()) {
      std::fprintf(log_, "rffstream: %s\n", std::string(config.status().message()).c_str());
      return kExitUsageError;
    }
    if (absl::Status fits = CheckModelFitsMemory(*config, sizeof(Real)); !fits.ok()) {
      std::fprintf(log_, "rffstream: %s\n", std::string(fits.message()).c_str());
      return kExitUsageError;
    }
    WarmUpDecision decision = DecideOnWarmUp(*std::move(config), task_, pending_);
    for (std::int64_t refused : decision.refused_lines) {
      if (std::optional<int> exit_code = ReportBadLine(refused, WarmUpDecision::kRefusal)) {
        return exit_code;
      }
    }
    PrintWarmUpDecision(log_, decision, task_, quiet_, tune_report_);
    config = std::move(decision.config);
    absl::StatusOr<BasicLearner<Real>> learner = BasicLearner<Real>::Create(*std::move(config));
    if (!learner.ok()) {
      std::fprintf(log_, "rffstream: %s\n", std::string(learner.status().message()).c_str());
      return kExitUsageError;
    }
    learner_.emplace(*std::move(learner));
    if (parse_ahead_ != nullptr) parse_ahead_->MapWith(*learner_);
    feature_row_.assign(static_cast<std::size_t>(learner_->row_length()), Real{0});
    const std::int64_t current_line = line_number_;
    for (const WarmUpLine& pending : pending_) {
      line_number_ = pending.line_number;
      std::optional<int> exit_code =
          pending.rejected ? EmitEmptyLine()
                           : Process(pending.inputs, {}, pending.labelled, pending.targets);
      if (exit_code.has_value()) return exit_code;
    }
    line_number_ = current_line;
    pending_.clear();
    pending_.shrink_to_fit();
    return std::nullopt;
  }

  // The output line of a blank or rejected input line, now or in its turn.
  std::optional<int> EmitEmptyLine() {
    if (!learner_.has_value()) {
      pending_.push_back(WarmUpLine{line_number_, /*rejected=*/true, false, {}, {}});
      return std::nullopt;
    }
    std::optional<int> exit_code = FlushBlock();  // output stays in input order
    writer_.WriteEmptyLine();
    return exit_code;
  }

  // Predicts (and learns from a labelled line) given the line's numbers and,
  // when the reading thread has mapped it already, its feature row.
  std::optional<int> Process(std::span<const double> parsed, std::span<const Real> mapped_row,
                             bool labelled, std::span<const double> targets) {
    std::span<const Real> row = mapped_row;
    if (row.empty()) {
      std::copy(parsed.begin(), parsed.end(), converted_inputs_.begin());
      learner_->MapRow(converted_inputs_, feature_row_);
      row = feature_row_;
    }
    const bool learns = labelled && mode_ == RunMode::kLearn;
    if (learns && block_size_ > 1) {
      block_rows_.insert(block_rows_.end(), row.begin(), row.end());
      block_targets_.resize(block_targets_.size() + real_targets_.size());
      EncodeTargets<Real>(task_, targets, std::span<Real>(block_targets_).last(real_targets_.size()));
      block_labels_.insert(block_labels_.end(), targets.begin(), targets.end());
      block_line_numbers_.push_back(line_number_);
      if (static_cast<int>(block_line_numbers_.size()) == block_size_) return FlushBlock();
      return std::nullopt;
    }
    if (std::optional<int> exit_code = FlushBlock()) return exit_code;  // output stays in input order
    if (learns) {
      EncodeTargets<Real>(task_, targets, real_targets_);
      // The variance is that of the prediction made before learning.
      const Real variance = with_variance_ ? learner_->PredictRowWithVariance(row).variance : Real{0};
      if (!learner_->LearnRowOutputs(row, real_targets_, priors_)) return RejectUnlearnable();
      WriteOutput(priors_, variance);
      Score(priors_, targets);
      return std::nullopt;
    }
    if (!labelled) ++predicted_only_;
    learner_->PredictRowOutputs(row, priors_);
    if (!AllFinite<Real>(priors_)) return RejectUnlearnable();
    const Real variance = with_variance_ ? learner_->PredictRowWithVariance(row).variance : Real{0};
    WriteOutput(priors_, variance);
    if (labelled) Score(priors_, targets);
    return std::nullopt;
  }

  static std::string UnlearnableReason() {
    return "a number is too large for the model (its features, prediction or update would not "
           "be finite)";
  }

  std::optional<int> RejectUnlearnable() { return Reject(UnlearnableReason()); }

  // The output line: the predicted class, or one prediction per target, and
  // the variance with --variance.
  void WriteOutput(std::span<const Real> predictions, Real variance) {
    if (task_.is_classifier()) {
      writer_.WriteValues({static_cast<double>(PredictedClass(predictions))});
      return;
    }
    if (with_variance_) {
      writer_.WriteValues({static_cast<double>(predictions[0]), static_cast<double>(variance)});
      return;
    }
    std::copy(predictions.begin(), predictions.end(), output_values_.begin());
    writer_.WriteValues(output_values_);
  }

  void Score(std::span<const Real> priors, std::span<const double> targets) {
    if (task_.is_classifier()) {
      classification_.Add(PredictedClass(priors), static_cast<int>(targets[0]));
      if (!quiet_) progress_.Update(classification_);
    } else {
      metrics_.Add(priors[0], targets[0]);
      for (std::size_t output = 1; output < priors.size(); ++output) {
        target_metrics_[output].Add(priors[output], targets[output]);
      }
      if (!quiet_) progress_.Update(metrics_);
    }
    if (schedule_.Due(learner_->samples_learned())) Save();
  }

  // Learns the buffered labelled lines as one block and writes their output;
  // a line the model refused gets its message and an empty output line.
  std::optional<int> FlushBlock() {
    if (block_line_numbers_.empty()) return std::nullopt;
    const std::size_t outputs = real_targets_.size();
    const std::size_t labels = static_cast<std::size_t>(task_.num_targets());
    block_priors_.resize(block_targets_.size());
    learner_->LearnRowBlock(block_rows_, block_targets_, block_priors_);
    // Every line of the block was learned or refused: all get their output
    // line, even when --strict stops the run at a refused one.
    std::optional<int> exit_code;
    for (std::size_t s = 0; s < block_line_numbers_.size(); ++s) {
      const std::span<const Real> priors =
          std::span<const Real>(block_priors_).subspan(s * outputs, outputs);
      if (!AllFinite<Real>(priors)) {
        std::optional<int> stop = ReportBadLine(block_line_numbers_[s], UnlearnableReason());
        if (!exit_code.has_value()) exit_code = stop;
        writer_.WriteEmptyLine();
        continue;
      }
      WriteOutput(priors, Real{0});
      Score(priors, std::span<const double>(block_labels_).subspan(s * labels, labels));
    }
    block_rows_.clear();
    block_targets_.clear();
    block_labels_.clear();
    block_line_numbers_.clear();
    return exit_code;
  }

  // Saves the checkpoint now; a failure is reported and the run goes on.
  bool Save() {
    const CheckpointRecord record{task_, metrics_, classification_};
    if (absl::Status status = SaveCheckpoint(schedule_.path(), *learner_, record); !status.ok()) {
      std::fprintf(log_, "rffstream: %s\n", std::string(status.message()).c_str());
      return false;
    }
    schedule_.MarkSaved(learner_->samples_learned());
    return true;
  }

  // Counts a bad line and prints its message (the first few): nullopt to go
  // on, or with --strict the exit code to stop with.
  std::optional<int> ReportBadLine(std::int64_t line_number, const std::string& reason) {
    ++rejected_;
    if (rejected_ <= max_error_messages_ || strict_) {
      std::fprintf(log_, "rffstream: %s: line %" PRId64 ": %s%s\n", input_name_.c_str(),
                   line_number, EscapeForLog(reason).c_str(), strict_ ? "" : " (skipped)");
    }
    if (strict_) return kExitBadInput;
    return std::nullopt;
  }

  // Rejects the current line: its message, and an empty output line.
  std::optional<int> Reject(const std::string& reason) {
    if (std::optional<int> exit_code = ReportBadLine(line_number_, reason)) return exit_code;
    return EmitEmptyLine();
  }

  const RunMode mode_;
  PredictionWriter& writer_;
  std::FILE* log_;
  const bool quiet_;
  const bool strict_;
  const int warm_up_lines_;  // data lines held back before the model exists (warm_up.h)
  int window_data_lines_ = 0;
  const int block_size_;
  const bool with_variance_;
  const bool tune_report_;
  const std::int64_t max_error_messages_;
  CheckpointSchedule schedule_;
  std::string input_name_;
  std::string model_source_;
  Task task_;  // set with the parser, or by Resume()
  int exit_code_ = kExitSuccess;  // of a fatal error in StartParser
  std::vector<std::string> header_;
  std::unique_ptr<LineParser> parser_;
  std::optional<BasicLearner<Real>> learner_;
  ParseAhead<Real>* parse_ahead_ = nullptr;  // while lines come from the reading thread
  std::vector<WarmUpLine> pending_;
  // libsvm lines held back while the dimension is inferred: number, text.
  std::vector<std::pair<std::int64_t, std::string>> undecided_lines_;
  RegressionMetrics metrics_;                      // of the first target
  std::vector<RegressionMetrics> target_metrics_;  // of every target; [0] copied for the summary
  ClassificationMetrics classification_{0};
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
  std::vector<std::int64_t> block_line_numbers_;
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
    if (absl::Status status =
            CheckFlagsAgreeWithModel(loaded->learner.config(), loaded->record.task, load_path);
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
  int exit_code = kExitSuccess;
  if (checkpoint.has_value()) exit_code = run.Resume(*std::move(checkpoint), load_path);
  if (exit_code == kExitSuccess) exit_code = run.Run(reader, input_path == "-" ? "stdin" : input_path);
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
