#include "rffstream/stream.h"

#include <utility>

#include "rffstream/stream/model_loading.h"
#include "rffstream/stream/model_options.h"

namespace rffstream {
namespace {

template <class Real>
class StreamOfPrecision final : public Stream {
 public:
  StreamOfPrecision(PipelineSettings settings, OutcomeSink& sink)
      : max_line_bytes_(settings.input.max_line_bytes), pipeline_(std::move(settings), sink) {}

  absl::Status Push(std::string_view line) override {
    if (!stopped_.ok()) return stopped_;
    // A line longer than the options allow is a bad line, as learn's reader makes it.
    const bool too_long = static_cast<std::int64_t>(line.size()) > max_line_bytes_;
    return Stop(pipeline_.Push(++lines_, too_long ? std::string_view() : line, too_long));
  }
  absl::Status Finish() override {
    if (!stopped_.ok()) return stopped_;
    return Stop(pipeline_.Finish());
  }
  absl::Status Save(const std::string& path) const override { return pipeline_.Save(path); }

  int bytes_per_number() const override { return sizeof(Real); }
  bool has_model() const override { return pipeline_.learner() != nullptr; }
  const Task& task() const override { return pipeline_.task(); }
  std::int64_t samples_learned() const override { return pipeline_.model().samples_learned(); }
  const RegressionMetrics& metrics() const override { return pipeline_.model().metrics(); }
  const ClassificationMetrics& classification() const override {
    return pipeline_.model().classification();
  }

  StreamPipeline<Real>& pipeline() { return pipeline_; }

 private:
  // The first error is the stream's end: every later call returns it.
  absl::Status Stop(absl::Status status) {
    stopped_ = status;
    return status;
  }

  const std::int64_t max_line_bytes_;
  StreamPipeline<Real> pipeline_;
  std::int64_t lines_ = 0;
  absl::Status stopped_;
};

template <class Real>
absl::StatusOr<std::unique_ptr<Stream>> Resume(const std::string& path, PipelineSettings settings,
                                               OutcomeSink& sink) {
  absl::StatusOr<BasicCheckpoint<Real>> loaded =
      LoadModel<Real>(path, settings.model, settings.input);
  if (!loaded.ok()) return loaded.status();
  auto stream = std::make_unique<StreamOfPrecision<Real>>(std::move(settings), sink);
  if (absl::Status resumed = stream->pipeline().Resume(*std::move(loaded), path); !resumed.ok()) {
    return resumed;
  }
  return stream;
}

// The options an embedder set count as given, as a user's flags do; then
// the checks every transport makes.
absl::Status Prepare(PipelineSettings& settings, bool loads_model) {
  NoteChangedOptions(settings.input);
  NoteChangedOptions(settings.model);
  return ValidatePipelineSettings(settings, loads_model, /*can_infer_dimension=*/true);
}

}  // namespace

absl::StatusOr<std::unique_ptr<Stream>> Stream::Create(PipelineSettings settings,
                                                       OutcomeSink& sink) {
  if (absl::Status valid = Prepare(settings, /*loads_model=*/false); !valid.ok()) return valid;
  if (settings.model.precision == Precision::kFloat32) {
    return std::make_unique<StreamOfPrecision<float>>(std::move(settings), sink);
  }
  return std::make_unique<StreamOfPrecision<double>>(std::move(settings), sink);
}

absl::StatusOr<std::unique_ptr<Stream>> Stream::Load(const std::string& path,
                                                     PipelineSettings settings,
                                                     OutcomeSink& sink) {
  if (absl::Status valid = Prepare(settings, /*loads_model=*/true); !valid.ok()) return valid;
  absl::StatusOr<int> bytes = ModelBytesPerNumber(settings.model, path);
  if (!bytes.ok()) return bytes.status();
  return *bytes == 4 ? Resume<float>(path, std::move(settings), sink)
                     : Resume<double>(path, std::move(settings), sink);
}

}  // namespace rffstream
