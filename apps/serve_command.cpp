#include "serve_command.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "exit_codes.h"
#include "line_server.h"
#include "listen_address.h"
#include "model_flags.h"
#include "input_format.h"
#include "printable_text.h"
#include "task_outputs.h"
#include "warm_up.h"
#include "rffstream/rffstream.h"

ABSL_DECLARE_FLAG(std::string, load);
ABSL_DECLARE_FLAG(std::string, save);
ABSL_DECLARE_FLAG(int64_t, max_line_bytes);
ABSL_DECLARE_FLAG(bool, tune_report);
ABSL_DECLARE_FLAG(bool, variance);
ABSL_DECLARE_FLAG(int, block);
ABSL_DECLARE_FLAG(double, forget);

ABSL_FLAG(std::string, listen, "127.0.0.1:7878",
          "serve: HOST:PORT (IPv4 or [IPv6]; port 0 = any free port) or unix:PATH. Loopback by "
          "default: listening on all interfaces needs an explicit 0.0.0.0 or [::]");
ABSL_FLAG(std::string, port_file, "", "serve: write the bound port to this file once listening");
ABSL_FLAG(int, max_connections, 1024, "serve: connections beyond this get an error line");
ABSL_FLAG(double, idle_timeout, 0, "serve: close connections silent this many seconds; 0 = off");
ABSL_FLAG(int, fields, 0,
          "serve: fields per data line (inputs and the target); 0 = from the first data line");

namespace rffstream::app {
namespace {

std::string Number(double value) {
  char text[32];
  return std::string(text, std::to_chars(text, text + sizeof(text), value).ptr);
}

// The protocol: data lines are predicted, then learned when labelled;
// control lines start with '!'. Every line gets one response line: the
// prediction (one per target, comma-separated), or the class of a
// classifier, or "error: ..." (escaped), and a bad line is never learned.
template <class Real>
class ServeModel {
 public:
  ServeModel(std::string save_path, std::optional<BasicCheckpoint<Real>> loaded)
      : save_path_(std::move(save_path)),
        fields_(absl::GetFlag(FLAGS_fields)),
        with_variance_(absl::GetFlag(FLAGS_variance)),
        // Blocks are exact with β = 1, and on by default in float64; in
        // float32 the rank-k downdates lose P's positive definiteness on long
        // ill-conditioned streams sooner than single updates do (measured:
        // after 225k lines of bench/serve_load's stream), so there they are
        // asked for with --block=k > 1. --variance needs each prediction
        // before the next update; --block=1 asks for one at a time.
        blocks_(absl::GetFlag(FLAGS_forget) == 1.0 && !with_variance_ &&
                (IsSetByUser(FLAGS_block) ? absl::GetFlag(FLAGS_block) > 1
                                          : std::is_same_v<Real, double>)) {
    if (loaded.has_value()) {
      learner_.emplace(std::move(loaded->learner));
      SetTask(loaded->record.task);
      metrics_ = loaded->record.metrics;
      classification_ = std::move(loaded->record.classification);
    }
  }

  void set_server(const LineServer* server) { server_ = server; }

  // The complete lines of one read: runs of labelled data lines are learned
  // as blocks; every line gets its answer, in order.
  void HandleLines(std::span<const std::string_view> lines, std::string& output) {
    for (std::string_view line : lines) {
      if (QueueForBlock(line)) {
        if (block_labels_.size() >= BlockLimit() * targets_.size()) FlushBlock(output);
        continue;
      }
      FlushBlock(output);
      absl::StrAppend(&output, Handle(line), "\n");
    }
    FlushBlock(output);
  }

  std::string Handle(std::string_view line) {
    if (!line.empty() && line.front() == '!') return Control(line.substr(1));
    if (line.find_first_not_of(" \t") == std::string_view::npos) return "error: empty line";
    if (parser_ == nullptr) {
      if (absl::Status status = StartParser(line); !status.ok()) return Error(std::string(status.message()));
    }
    absl::StatusOr<bool> labelled = parser_->ParseTargets(line, inputs_, targets_);
    if (!labelled.ok()) return Error(std::string(labelled.status().message()));
    if (*labelled) {
      if (std::optional<std::string> invalid = InvalidClassLabel(task_, targets_[0])) {
        return Error(*invalid);
      }
    }
    if (!learner_.has_value()) return HoldForWarmUp(*labelled);
    std::copy(inputs_.begin(), inputs_.end(), converted_.begin());
    learner_->MapRow(converted_, row_);
    // The variance is that of the prediction made before learning, as in learn.
    const Real variance = with_variance_ ? learner_->PredictRowWithVariance(row_).variance : Real{0};
    if (!*labelled) {
      learner_->PredictRowOutputs(row_, outputs_);
      if (!AllFinite<Real>(outputs_)) return Error(kTooLarge);
      return Answer(variance);
    }
    if (!Learn(targets_)) return Error(kTooLarge);
    return Answer(variance);
  }

  // Saves the checkpoint if one is configured; a message for the log or client.
  absl::Status Save() {
    if (save_path_.empty()) {
      return absl::FailedPreconditionError("no checkpoint file configured (start with --save=FILE)");
    }
    if (!learner_.has_value() && stopping_ && !window_.empty()) {
      // Stopping before the window filled: as learn does at the end of a
      // short input, the model is built from the lines there are.
      if (absl::Status built = BuildModel(); !built.ok()) return built;
    }
    if (!learner_.has_value()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "no model yet (the warm-up window holds ", window_.size(), " of ", window_lines_, " lines)"));
    }
    return SaveCheckpoint(save_path_, *learner_, CheckpointRecord{task_, metrics_, classification_});
  }

  // The server is stopping: a save may complete the warm-up.
  void set_stopping() { stopping_ = true; }

 private:
  static constexpr std::string_view kTooLarge =
      "a number is too large for the model (its features, prediction or update would not be "
      "finite)";

  // Learns the mapped row_ with these labels: outputs_ gets the a-priori
  // predictions, the metrics the line. False when the model refused it.
  bool Learn(std::span<const double> labels) {
    EncodeTargets<Real>(task_, labels, model_targets_);
    if (!learner_->LearnRowOutputs(row_, model_targets_, outputs_)) return false;
    if (task_.is_classifier()) {
      classification_.Add(PredictedClass<Real>(outputs_), static_cast<int>(labels[0]));
    } else {
      metrics_.Add(outputs_[0], labels[0]);
    }
    return true;
  }

  // Before the model exists, data lines fill the warm-up window (from every
  // client, in arrival order). Each is answered at once — no client waits
  // for another's lines — with "warming up (k of N)"; the line that fills
  // the window builds the model, which then learns the window's lines in
  // order, as `learn` does.
  std::string HoldForWarmUp(bool labelled) {
    // A model that cannot be built (flags that do not fit the input) is not
    // retried line after line: its reason answers every data line.
    if (!build_error_.ok()) return Error(std::string(build_error_.message()));
    window_.push_back(WarmUpLine{static_cast<std::int64_t>(window_.size()) + 1, false, labelled,
                                 inputs_, targets_});
    const std::string answer = absl::StrCat("warming up (", window_.size(), " of ", window_lines_, ")");
    if (static_cast<int>(window_.size()) < window_lines_) return answer;
    if (absl::Status built = BuildModel(); !built.ok()) {
      build_error_ = built;
      window_.clear();
      return Error(std::string(built.message()));
    }
    return answer;
  }

  // The model from the warm-up window (empty when nothing is decided from
  // the data), then the window's lines learned.
  absl::Status BuildModel() {
    absl::StatusOr<LearnerConfig> config =
        LearnerConfigFromFlags(task_.num_inputs(), task_.num_outputs());
    if (!config.ok()) return config.status();
    if (absl::Status fits = CheckModelFitsMemory(*config, sizeof(Real)); !fits.ok()) return fits;
    WarmUpDecision decision = DecideOnWarmUp(*std::move(config), task_, window_);
    for (std::int64_t refused : decision.refused_lines) {
      std::fprintf(stderr, "rffstream serve: warm-up line %" PRId64 ": %s (not learned)\n", refused,
                   WarmUpDecision::kRefusal);
    }
    PrintWarmUpDecision(stderr, decision, task_, /*quiet=*/false, absl::GetFlag(FLAGS_tune_report));
    absl::StatusOr<BasicLearner<Real>> learner = BasicLearner<Real>::Create(std::move(decision.config));
    if (!learner.ok()) return learner.status();
    learner_.emplace(*std::move(learner));
    row_.assign(static_cast<std::size_t>(learner_->row_length()), Real{0});
    for (const WarmUpLine& line : window_) {
      if (line.rejected || !line.labelled) continue;
      std::copy(line.inputs.begin(), line.inputs.end(), converted_.begin());
      learner_->MapRow(converted_, row_);
      (void)Learn(line.targets);  // a refused line is simply not learned, as in learn
    }
    window_.clear();
    window_.shrink_to_fit();
    return absl::OkStatus();
  }

  static std::string Error(std::string_view message) {
    return absl::StrCat("error: ", EscapeForLog(message));
  }

  // The answer line from outputs_: the class, or the predictions, and the
  // variance with --variance.
  std::string Answer(Real variance) const { return AnswerFor(outputs_, variance); }

  std::string AnswerFor(std::span<const Real> outputs, Real variance) const {
    if (task_.is_classifier()) return absl::StrCat(PredictedClass<Real>(outputs));
    if (with_variance_) return absl::StrCat(Number(outputs[0]), ",", Number(variance));
    std::string answer;
    for (std::size_t output = 0; output < outputs.size(); ++output) {
      absl::StrAppend(&answer, output == 0 ? "" : ",", Number(outputs[output]));
    }
    return answer;
  }

  // A labelled data line the model can learn in a block: parsed, mapped and
  // queued (true); anything else is left to Handle().
  bool QueueForBlock(std::string_view line) {
    if (!blocks_ || !learner_.has_value() || parser_ == nullptr || line.empty() || line.front() == '!') {
      return false;
    }
    absl::StatusOr<bool> labelled = parser_->ParseTargets(line, inputs_, targets_);
    if (!labelled.ok() || !*labelled || InvalidClassLabel(task_, targets_[0]).has_value()) {
      return false;
    }
    std::copy(inputs_.begin(), inputs_.end(), converted_.begin());
    const std::size_t row_length = row_.size();
    block_rows_.resize(block_rows_.size() + row_length);
    learner_->MapRow(converted_, std::span<Real>(block_rows_).last(row_length));
    block_targets_.resize(block_targets_.size() + model_targets_.size());
    EncodeTargets<Real>(task_, targets_, std::span<Real>(block_targets_).last(model_targets_.size()));
    block_labels_.insert(block_labels_.end(), targets_.begin(), targets_.end());
    return true;
  }

  // The labelled lines a block holds at most: --block=k when given.
  std::size_t BlockLimit() const {
    return IsSetByUser(FLAGS_block) ? static_cast<std::size_t>(absl::GetFlag(FLAGS_block))
                                    : kMaxLinesPerBatch;
  }

  // Learns the queued lines as one block (exact with β = 1: the a-priori
  // predictions equal one-at-a-time learning's, to rounding) and answers them.
  void FlushBlock(std::string& output) {
    if (block_labels_.empty()) return;
    const std::size_t outputs = model_targets_.size(), labels = targets_.size();
    block_priors_.resize(block_targets_.size());
    learner_->LearnRowBlock(block_rows_, block_targets_, block_priors_);
    for (std::size_t s = 0; s * outputs < block_priors_.size(); ++s) {
      const std::span<const Real> priors = std::span<const Real>(block_priors_).subspan(s * outputs, outputs);
      const std::span<const double> label = std::span<const double>(block_labels_).subspan(s * labels, labels);
      if (!AllFinite<Real>(priors)) {
        absl::StrAppend(&output, Error(kTooLarge), "\n");
        continue;
      }
      if (task_.is_classifier()) {
        classification_.Add(PredictedClass<Real>(priors), static_cast<int>(label[0]));
      } else {
        metrics_.Add(priors[0], label[0]);
      }
      absl::StrAppend(&output, AnswerFor(priors, Real{0}), "\n");
    }
    block_rows_.clear();
    block_targets_.clear();
    block_labels_.clear();
  }

  void SetTask(const Task& task) {
    task_ = task;
    classification_ = ClassificationMetrics(task_.num_classes);
    model_targets_.assign(task_.num_outputs(), Real{0});
    outputs_.assign(task_.num_outputs(), Real{0});
  }

  // The parser from the loaded model's task, or from the flags and the
  // first data line for a new model, which is created at once or after the
  // warm-up window.
  absl::Status StartParser(std::string_view first_line) {
    if (!learner_.has_value()) {
      // --fields fixes the field count, so that a malformed first line cannot.
      absl::StatusOr<Task> task = TaskFromFlags(first_line, {}, 0, fields_);
      if (!task.ok()) return task.status();
      SetTask(*task);
      window_lines_ = WarmUpWindowLines(task_.num_classes);
    }
    parser_ = task_.MakeLineParser();
    inputs_.assign(parser_->num_inputs(), 0.0);
    targets_.assign(parser_->num_targets(), 0.0);
    converted_.assign(parser_->num_inputs(), Real{0});
    if (!learner_.has_value() && window_lines_ == 0) return BuildModel();
    if (learner_.has_value()) row_.assign(static_cast<std::size_t>(learner_->row_length()), Real{0});
    return absl::OkStatus();
  }

  std::string Control(std::string_view command) {
    if (command == "ping") return "pong";
    if (command == "stats") {
      const std::string connections =
          absl::StrCat(" connections ", server_ != nullptr ? server_->open_connections() : 0,
                       " accepted ", server_ != nullptr ? server_->accepted_connections() : 0);
      if (task_.is_classifier()) {
        return absl::StrCat("samples ", classification_.count(), " accuracy ",
                            Number(classification_.accuracy()), connections);
      }
      return absl::StrCat("samples ", metrics_.count(), " mse ", Number(metrics_.mean_squared_error()),
                          " mae ", Number(metrics_.mean_absolute_error()), " r2 ",
                          Number(metrics_.r_squared()), connections);
    }
    if (command == "save") {
      const absl::Status status = Save();
      return status.ok() ? "ok" : Error(std::string(status.message()));
    }
    return Error(absl::StrCat("unknown command '!", std::string(command),
                              "' (commands: !ping, !stats, !save)"));
  }

  const std::string save_path_;
  const int fields_;
  const bool with_variance_;
  const bool blocks_;
  const LineServer* server_ = nullptr;
  Task task_;
  std::unique_ptr<LineParser> parser_;
  std::optional<BasicLearner<Real>> learner_;
  RegressionMetrics metrics_;
  ClassificationMetrics classification_{0};
  // Per-line buffers, sized once.
  std::vector<double> inputs_;
  std::vector<double> targets_;
  std::vector<Real> converted_;
  std::vector<Real> row_;
  std::vector<Real> model_targets_;
  std::vector<Real> outputs_;
  // Labelled lines of one read waiting to be learned as a block: feature
  // rows, model targets, labels.
  std::vector<Real> block_rows_;
  std::vector<Real> block_targets_;
  std::vector<double> block_labels_;
  std::vector<Real> block_priors_;
  // The warm-up window, until the model exists.
  absl::Status build_error_;
  bool stopping_ = false;
  int window_lines_ = 0;
  std::vector<WarmUpLine> window_;
};

template <class Real>
int Serve(int signal_fd) {
  const std::string load_path = absl::GetFlag(FLAGS_load);
  std::optional<BasicCheckpoint<Real>> loaded;
  if (!load_path.empty()) {
    absl::StatusOr<BasicCheckpoint<Real>> checkpoint = LoadCheckpoint<Real>(load_path);
    if (!checkpoint.ok()) {
      std::fprintf(stderr, "rffstream serve: %s\n", std::string(checkpoint.status().message()).c_str());
      return kExitIoError;
    }
    if (absl::Status status = CheckFlagsAgreeWithModel(checkpoint->learner.config(),
                                                       checkpoint->record.task, load_path);
        !status.ok()) {
      std::fprintf(stderr, "rffstream serve: %s\n", std::string(status.message()).c_str());
      return kExitUsageError;
    }
    if (absl::GetFlag(FLAGS_variance) && checkpoint->record.task.num_outputs() > 1) {
      std::fprintf(stderr, "rffstream serve: --variance is for a single regression target; the model has %d outputs\n",
                   checkpoint->record.task.num_outputs());
      return kExitUsageError;
    }
    loaded.emplace(*std::move(checkpoint));
  }
  absl::StatusOr<ListenAddress> address = ParseListenAddress(absl::GetFlag(FLAGS_listen));
  if (!address.ok()) {
    std::fprintf(stderr, "rffstream serve: %s\n", std::string(address.status().message()).c_str());
    return kExitUsageError;
  }
  absl::StatusOr<int> listen_fd = OpenListeningSocket(*address);
  if (!listen_fd.ok()) {
    std::fprintf(stderr, "rffstream serve: %s\n", std::string(listen_fd.status().message()).c_str());
    return kExitIoError;
  }
  const std::string bound = DescribeBoundAddress(*listen_fd, *address);
  std::fprintf(stderr, "rffstream serve: listening on %s\n", bound.c_str());
  if (const std::string port_file = absl::GetFlag(FLAGS_port_file); !port_file.empty()) {
    // Written to a temporary name and renamed, so a reader never sees half a number.
    const std::string temporary = port_file + ".tmp";
    std::ofstream(temporary) << BoundPort(*listen_fd) << "\n";
    std::rename(temporary.c_str(), port_file.c_str());
  }
  ServeModel<Real> model(absl::GetFlag(FLAGS_save), std::move(loaded));
  LineServerOptions options;
  options.max_connections = absl::GetFlag(FLAGS_max_connections);
  options.max_line_bytes = static_cast<std::size_t>(absl::GetFlag(FLAGS_max_line_bytes));
  options.idle_timeout = absl::Seconds(absl::GetFlag(FLAGS_idle_timeout));
  LineServer server(*listen_fd, options,
                    [&model](std::span<const std::string_view> lines, std::string& output) {
                      model.HandleLines(lines, output);
                    },
                    stderr);
  model.set_server(&server);
  absl::Status status = server.Run(signal_fd);
  if (address->is_unix) ::unlink(address->path.c_str());
  if (!status.ok()) {
    std::fprintf(stderr, "rffstream serve: %s\n", std::string(status.message()).c_str());
    return kExitIoError;
  }
  if (!absl::GetFlag(FLAGS_save).empty()) {
    model.set_stopping();
    if (absl::Status saved = model.Save(); !saved.ok()) {
      std::fprintf(stderr, "rffstream serve: checkpoint not saved: %s\n",
                   std::string(saved.message()).c_str());
      return kExitIoError;
    }
    std::fprintf(stderr, "rffstream serve: saved %s\n", absl::GetFlag(FLAGS_save).c_str());
  }
  std::fprintf(stderr, "rffstream serve: stopped\n");
  return kExitSuccess;
}

// Each connection holds a descriptor: raises the soft limit on open files to
// the hard one (the common soft limit, 1024, is what --max_connections
// defaults to), and when even that is short of --max_connections plus the
// server's own descriptors, lowers a default --max_connections to fit (a
// value the user gave is kept: accept then pauses when descriptors run out).
// A note for the log when the limit decided anything.
std::optional<std::string> FitDescriptorLimit() {
  constexpr rlim_t kReserved = 16;  // listening socket, epoll, signalfd, log, checkpoint, ...
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return std::nullopt;
  if (limit.rlim_cur < limit.rlim_max) {
    rlimit raised = limit;
    raised.rlim_cur = limit.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
  }
  const auto wanted = static_cast<rlim_t>(absl::GetFlag(FLAGS_max_connections)) + kReserved;
  if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= wanted) return std::nullopt;
  const int fitting = limit.rlim_cur > kReserved ? static_cast<int>(limit.rlim_cur - kReserved) : 1;
  if (IsSetByUser(FLAGS_max_connections)) {
    return absl::StrCat("only ", limit.rlim_cur, " open files allowed (ulimit -n): at most about ",
                        fitting, " of --max_connections=", absl::GetFlag(FLAGS_max_connections),
                        " can be open at once");
  }
  absl::SetFlag(&FLAGS_max_connections, fitting);
  return absl::StrCat("--max_connections=", fitting, " to fit the limit of ", limit.rlim_cur,
                      " open files (ulimit -n)");
}

}  // namespace

int RunServeCommand() {
  if (absl::Status status = ValidateInputFormatFlags(/*can_infer_dimension=*/false); !status.ok()) {
    std::fprintf(stderr, "rffstream serve: %s\n", std::string(status.message()).c_str());
    return kExitUsageError;
  }
  if (absl::Status status = ValidateModelFlags(); !status.ok()) {
    std::fprintf(stderr, "rffstream serve: %s\n", std::string(status.message()).c_str());
    return kExitUsageError;
  }
  if (absl::GetFlag(FLAGS_variance) && OutputsFromFlags() > 1) {
    std::fprintf(stderr, "rffstream serve: --variance is for a single regression target\n");
    return kExitUsageError;
  }
  if (absl::GetFlag(FLAGS_max_connections) < 1 || absl::GetFlag(FLAGS_idle_timeout) < 0 ||
      absl::GetFlag(FLAGS_fields) < 0 || absl::GetFlag(FLAGS_max_line_bytes) <= 0) {
    std::fprintf(stderr,
                 "rffstream serve: --max_connections, --max_line_bytes must be positive; "
                 "--idle_timeout, --fields non-negative\n");
    return kExitUsageError;
  }
  if (std::optional<std::string> note = FitDescriptorLimit(); note.has_value()) {
    std::fprintf(stderr, "rffstream serve: %s\n", note->c_str());
  }
  // SIGINT and SIGTERM arrive as readable events on a descriptor, so the
  // event loop shuts down in an orderly way between requests.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigprocmask(SIG_BLOCK, &signals, nullptr);
  const int signal_fd = ::signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK);
  if (signal_fd < 0) {
    std::perror("rffstream serve: signalfd");
    return kExitIoError;
  }
  const bool single = absl::GetFlag(FLAGS_precision) == "float32";
  const int exit_code = single ? Serve<float>(signal_fd) : Serve<double>(signal_fd);
  ::close(signal_fd);
  return exit_code;
}

}  // namespace rffstream::app
