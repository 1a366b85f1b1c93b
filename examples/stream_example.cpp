// Embedding the model `rffstream learn` builds: CSV lines in (a header, a
// text column, a missing value), answers out, a checkpoint at the end. The
// warm-up window standardizes the inputs and tunes the kernel, bandwidth and
// ridge, exactly as the command line does with the same options.
#include <cmath>
#include <cstdio>
#include <string>

#include <rffstream/stream.h>

// Prints each answer of a labelled line; `learn --predictions=-` writes the same.
class PrintAnswers : public rffstream::OutcomeSink {
 public:
  bool Take(const rffstream::LineOutcome& outcome) override {
    if (outcome.kind == rffstream::LineOutcome::Kind::kBad) {
      std::fprintf(stderr, "line %lld: %.*s\n", static_cast<long long>(outcome.line_number),
                   static_cast<int>(outcome.reason.size()), outcome.reason.data());
    }
    return true;
  }
  void Note(std::string_view lines) override {
    std::fwrite(lines.data(), 1, lines.size(), stderr);
  }
};

int main() {
  PrintAnswers sink;
  rffstream::PipelineSettings settings;  // learn's defaults, and as --header:
  settings.input.header = true;
  absl::StatusOr<std::unique_ptr<rffstream::Stream>> stream =
      rffstream::Stream::Create(settings, sink);
  if (!stream.ok()) {
    std::fprintf(stderr, "%s\n", stream.status().ToString().c_str());
    return 1;
  }
  const char* const cities[] = {"paris", "oslo", "lima"};
  absl::Status status = (*stream)->Push("temperature,humidity,city,load");
  for (int t = 0; t < 4000 && status.ok(); ++t) {
    const double a = std::sin(0.05 * t), b = std::cos(0.031 * t);
    const std::string humidity = t == 10 ? "" : std::to_string(b);  // a missing value
    status = (*stream)->Push(std::to_string(a) + "," + humidity + "," + cities[t % 3] + "," +
                             std::to_string(a * b + 0.5 * (t % 3)));
  }
  if (status.ok()) status = (*stream)->Finish();
  if (status.ok()) status = (*stream)->Save("stream_example.rff");
  if (!status.ok()) {
    std::fprintf(stderr, "%s\n", status.ToString().c_str());
    return 1;
  }
  std::printf("progressive rmse %.4f over %lld lines, saved to stream_example.rff\n",
              (*stream)->metrics().root_mean_squared_error(),
              static_cast<long long>((*stream)->samples_learned()));
  return 0;
}
