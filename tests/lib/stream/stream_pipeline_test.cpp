// The stream pipeline driven line by line, as learn and serve drive it: the
// outcomes' order, the one warm-up queue, exact blocks, and what a short
// stream or a model that does not exist yet leads to.
#include "rffstream/stream/stream_pipeline.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "catch2/catch.hpp"

namespace rffstream {
namespace {

// Every outcome, as plain values.
struct Recorded {
  LineOutcome::Kind kind;
  std::int64_t line_number;
  std::vector<double> values;
  std::string reason;
  int held;
  bool replayed;
};

class RecordingSink : public OutcomeSink {
 public:
  bool Take(const LineOutcome& outcome) override {
    outcomes.push_back({outcome.kind, outcome.line_number,
                        std::vector<double>(outcome.values.begin(), outcome.values.end()),
                        std::string(outcome.reason), outcome.held, outcome.replayed});
    return !stop_at_bad || outcome.kind != LineOutcome::Kind::kBad;
  }
  void Note(std::string_view lines) override { notes.append(lines); }
  std::vector<Recorded> outcomes;
  std::string notes;
  bool stop_at_bad = false;
};

// A quiet pipeline with a fixed bandwidth and ridge, standardizing over
// `window` lines (0 = no warm-up).
PipelineSettings Settings(int window, int block_size = 1,
                          WarmUpAnswers answers = WarmUpAnswers::kInTurn) {
  PipelineSettings settings;
  settings.model.features = 32;
  settings.model.gamma = 0.5;
  settings.model.ridge = 0.01;
  settings.model.standardize = window;
  settings.model.given.Add("standardize");
  settings.block_size = block_size;
  settings.warm_up_answers = answers;
  settings.quiet = true;
  settings.reads_header = false;
  return settings;
}

std::string Line(int i) {
  const double x = 0.1 * i, y = std::sin(0.7 * i);
  return absl::StrCat(x, ",", y, ",", x * y + std::cos(x));
}

void PushAll(StreamPipeline<double>& pipeline, const std::vector<std::string>& lines) {
  for (std::size_t i = 0; i < lines.size(); ++i) {
    REQUIRE(pipeline.Push(static_cast<std::int64_t>(i) + 1, lines[i]).ok());
  }
  REQUIRE(pipeline.Finish().ok());
}

TEST_CASE("In turn, every line gets one outcome in input order, the window's too",
          "[pipeline]") {
  std::vector<std::string> lines;
  for (int i = 0; i < 12; ++i) lines.push_back(Line(i));
  lines[2] = "";             // blank, inside the window
  lines[4] = "1,x,2";        // bad, inside the window
  lines[9] = "3,4,5,6";      // bad, after it
  RecordingSink sink;
  StreamPipeline<double> pipeline(Settings(/*window=*/5), sink);
  PushAll(pipeline, lines);
  REQUIRE(sink.outcomes.size() == lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    INFO("line " << i + 1);
    CHECK(sink.outcomes[i].line_number == static_cast<std::int64_t>(i) + 1);
    const LineOutcome::Kind expected = i == 2               ? LineOutcome::Kind::kBlank
                                       : i == 4 || i == 9 ? LineOutcome::Kind::kBad
                                                           : LineOutcome::Kind::kAnswer;
    CHECK(sink.outcomes[i].kind == expected);
  }
  CHECK(sink.outcomes[4].reason == "column 1: 'x' is not a number (a text column? declare it categorical)");
  CHECK(pipeline.model().metrics().count() == 9);
}

// The target of Line(i), as written there.
double Target(int i) {
  const std::string line = Line(i);
  return std::stod(line.substr(line.rfind(',') + 1));
}

TEST_CASE("The warm-up window's lines are answered at arrival, then learned by the model",
          "[pipeline][warm_up]") {
  for (const WarmUpAnswers answers : {WarmUpAnswers::kInTurn, WarmUpAnswers::kAtArrival}) {
    RecordingSink sink;
    StreamPipeline<double> pipeline(Settings(/*window=*/3, 1, answers), sink);
    REQUIRE(pipeline.Push(1, Line(1)).ok());
    REQUIRE(pipeline.Push(2, "oops").ok());
    REQUIRE(pipeline.Push(3, Line(3)).ok());
    REQUIRE(sink.outcomes.size() == 3);  // nothing waits for the window
    // Before any target is known the answer is 0; then the targets' mean.
    CHECK(sink.outcomes[0].kind == LineOutcome::Kind::kAnswer);
    CHECK(sink.outcomes[0].values == std::vector<double>{0.0});
    CHECK(sink.outcomes[1].kind == LineOutcome::Kind::kBad);
    CHECK(sink.outcomes[2].values == std::vector<double>{Target(1)});
    CHECK(pipeline.learner() == nullptr);
    CHECK(pipeline.Save("/nonexistent/x").message() ==
          "no model yet (the warm-up window holds 2 of 3 lines)");
    REQUIRE(pipeline.Push(4, Line(4)).ok());  // fills the window: the model learns it
    REQUIRE(sink.outcomes.size() == 4);
    CHECK(sink.outcomes[3].values == std::vector<double>{(Target(1) + Target(3)) / 2});
    REQUIRE(pipeline.learner() != nullptr);
    CHECK(pipeline.model().samples_learned() == 3);
    // Every answer is scored as it was given, and the window's part apart.
    CHECK(pipeline.model().metrics().count() == 3);
    CHECK(pipeline.model().warm_up().regression.count() == 3);
    REQUIRE(pipeline.Push(5, Line(5)).ok());
    REQUIRE(sink.outcomes.size() == 5);
    CHECK(sink.outcomes[4].kind == LineOutcome::Kind::kAnswer);
    CHECK(pipeline.model().metrics().count() == 4);
    CHECK(pipeline.model().warm_up().regression.count() == 3);
  }
}

TEST_CASE("The provisional model fits once the window holds enough lines", "[pipeline][warm_up]") {
  RecordingSink sink;
  StreamPipeline<double> pipeline(Settings(/*window=*/200), sink);
  constexpr int kLines = 120;
  for (int i = 1; i <= kLines; ++i) REQUIRE(pipeline.Push(i, Line(i)).ok());
  REQUIRE(sink.outcomes.size() == kLines);
  // Up to ProvisionalModel::kFirstFitLines the answer is the mean of the
  // targets so far; past it the model's answers beat that mean.
  double sum = 0, model_error = 0, mean_error = 0;
  for (int i = 1; i <= kLines; ++i) {
    const double mean = i > 1 ? sum / (i - 1) : 0.0;
    const double answer = sink.outcomes[i - 1].values[0];
    if (i <= ProvisionalModel::kFirstFitLines) {
      CHECK(answer == Approx(mean).margin(1e-12));
    } else {
      model_error += (answer - Target(i)) * (answer - Target(i));
      mean_error += (mean - Target(i)) * (mean - Target(i));
    }
    sum += Target(i);
  }
  CHECK(model_error < 0.5 * mean_error);
  CHECK(pipeline.learner() == nullptr);
}

TEST_CASE("Blocks give one-at-a-time's answers, in order around blank and bad lines",
          "[pipeline]") {
  std::vector<std::string> lines;
  for (int i = 0; i < 40; ++i) lines.push_back(Line(i));
  lines[7] = "";
  lines[13] = "bad";
  lines[20] = "0.5,0.25,";  // unlabelled: predicted, not learned
  RecordingSink single_sink, block_sink;
  StreamPipeline<double> single(Settings(4, 1), single_sink);
  StreamPipeline<double> blocks(Settings(4, 6), block_sink);
  PushAll(single, lines);
  PushAll(blocks, lines);
  REQUIRE(block_sink.outcomes.size() == lines.size());
  REQUIRE(single_sink.outcomes.size() == lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    INFO("line " << i + 1);
    const Recorded& a = single_sink.outcomes[i];
    const Recorded& b = block_sink.outcomes[i];
    CHECK(b.line_number == a.line_number);
    CHECK(b.kind == a.kind);
    REQUIRE(b.values.size() == a.values.size());
    for (std::size_t v = 0; v < a.values.size(); ++v) CHECK(std::abs(b.values[v] - a.values[v]) < 1e-9);
  }
  CHECK(blocks.model().samples_learned() == single.model().samples_learned());
}

TEST_CASE("A sink that stops the stream stops it at that line", "[pipeline]") {
  RecordingSink sink;
  sink.stop_at_bad = true;
  StreamPipeline<double> pipeline(Settings(0), sink);
  REQUIRE(pipeline.Push(1, Line(1)).ok());
  const absl::Status stopped = pipeline.Push(2, "1,2");
  CHECK(stopped.code() == absl::StatusCode::kCancelled);
  CHECK(sink.outcomes.back().kind == LineOutcome::Kind::kBad);
}

TEST_CASE("libsvm's dimension window and the warm-up window are one queue", "[pipeline]") {
  PipelineSettings settings = Settings(/*window=*/2);
  settings.input.format = rffstream::InputFormat::kLibsvm;
  RecordingSink sink;
  StreamPipeline<double> pipeline(settings, sink);
  const std::vector<std::string> lines = {"1 1:0.5", "", "0 2:1.5 5:1", "2 1:x", "1 3:2"};
  PushAll(pipeline, lines);  // shorter than the dimension window: decided at the end
  CHECK(pipeline.task().num_inputs() == 5);
  REQUIRE(sink.outcomes.size() == lines.size());
  CHECK(sink.outcomes[0].kind == LineOutcome::Kind::kAnswer);
  CHECK(sink.outcomes[1].kind == LineOutcome::Kind::kBlank);
  CHECK(sink.outcomes[2].kind == LineOutcome::Kind::kAnswer);
  CHECK(sink.outcomes[3].kind == LineOutcome::Kind::kBad);
  CHECK(sink.outcomes[4].kind == LineOutcome::Kind::kAnswer);
  CHECK(pipeline.model().samples_learned() == 3);
}

TEST_CASE("A stream shorter than the window builds its model at the end", "[pipeline]") {
  RecordingSink sink;
  StreamPipeline<double> pipeline(Settings(/*window=*/100), sink);
  REQUIRE(pipeline.Push(1, Line(1)).ok());
  REQUIRE(pipeline.Push(2, Line(2)).ok());
  CHECK(sink.outcomes.size() == 2);  // answered by the provisional model
  CHECK(pipeline.learner() == nullptr);
  REQUIRE(pipeline.Finish().ok());
  CHECK(pipeline.learner() != nullptr);
  CHECK(pipeline.model().samples_learned() == 2);
  CHECK(sink.outcomes.size() == 2);
}

TEST_CASE("Classes are encoded one-vs-rest and answered by argmax", "[pipeline]") {
  PipelineSettings settings = Settings(0);
  settings.input.classes = 3;
  RecordingSink sink;
  StreamPipeline<double> pipeline(settings, sink);
  std::vector<std::string> lines;
  for (int i = 0; i < 60; ++i) lines.push_back(absl::StrCat(i % 3, ",", (i * 7) % 5, ",", i % 3));
  lines.push_back("1,1,3");  // not a class
  PushAll(pipeline, lines);
  CHECK(sink.outcomes.back().kind == LineOutcome::Kind::kBad);
  CHECK(sink.outcomes.back().reason == "class label 3 is not an integer in [0, 3) (--classes)");
  CHECK(pipeline.model().classification().count() == 60);
  CHECK(pipeline.model().classification().accuracy() > 0.8);
  for (int i = 0; i < 60; ++i) CHECK(sink.outcomes[i].values.size() == 1);
}

TEST_CASE("A model the options cannot build is the answer of every data line", "[pipeline]") {
  PipelineSettings settings = Settings(0, 1, WarmUpAnswers::kAtArrival);
  settings.model.lengthscales = {1, 2, 3};  // the input has 2
  RecordingSink sink;
  StreamPipeline<double> pipeline(settings, sink);
  const absl::Status first = pipeline.Push(1, Line(1));
  CHECK(first.code() == absl::StatusCode::kInvalidArgument);
  CHECK(pipeline.Push(2, Line(2)) == first);
  CHECK(sink.outcomes.empty());
}

TEST_CASE("The pipeline prints nothing: its decisions and warnings are notes to the sink",
          "[pipeline]") {
  PipelineSettings settings = Settings(/*window=*/16);
  settings.model.gamma.reset();  // auto
  settings.model.ridge.reset();
  settings.quiet = false;
  settings.tune_report = true;
  settings.reads_header = true;
  settings.input.header = true;
  settings.input_name = "sensors.csv";
  RecordingSink sink;
  StreamPipeline<double> pipeline(settings, sink);
  REQUIRE(pipeline.Push(1, "a,a,y").ok());  // a header that names a column twice
  for (int i = 0; i < 40; ++i) REQUIRE(pipeline.Push(i + 2, Line(i)).ok());
  REQUIRE(pipeline.Finish().ok());
  INFO(sink.notes);
  CHECK(sink.notes.find("rffstream: sensors.csv: warning: ") != std::string::npos);
  CHECK(sink.notes.find("tuned on the first 16 labelled lines by leave-one-out") !=
        std::string::npos);
  CHECK(sink.notes.find("gamma \\ ridge") != std::string::npos);  // the tables
  CHECK(sink.notes.back() == '\n');

  settings.quiet = true;  // quiet: the tuned settings are not noted
  RecordingSink quiet_sink;
  StreamPipeline<double> quiet(settings, quiet_sink);
  for (int i = 0; i < 40; ++i) REQUIRE(quiet.Push(i + 2, Line(i)).ok());
  REQUIRE(quiet.Finish().ok());
  CHECK(quiet_sink.notes.find("tuned on") == std::string::npos);
}

}  // namespace
}  // namespace rffstream
