// An embedder's Stream (rffstream/stream.h) against `rffstream learn`: the
// same options on the same lines give the same answers and the same
// checkpoint, byte for byte: both are the library's one stream pipeline.
// The stream is a real CSV's kind: a header, a text column, missing values,
// a bad line; in float64 one line at a time and in float32 in blocks.
#include <catch2/catch.hpp>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "rffstream/stream.h"
#include "tests/app_process.h"
#include "tests/temp_dir.h"

namespace {

using namespace rffstream::testing;

// Each answer as `learn --predictions` writes it; a line without one (blank,
// bad) as an empty line.
class PredictionLines : public rffstream::OutcomeSink {
 public:
  bool Take(const rffstream::LineOutcome& outcome) override {
    using Kind = rffstream::LineOutcome::Kind;
    if (outcome.kind == Kind::kHeld) return true;
    std::string line;
    if (outcome.kind == Kind::kAnswer) {
      for (const double value : outcome.values) {
        char text[32];
        if (!line.empty()) line += ',';
        line.append(text, std::to_chars(text, text + sizeof(text), value).ptr);
      }
    }
    lines += line + "\n";
    return true;
  }
  std::string lines;
};

// Sensor-like rows: two numbers, a city, the target; some values missing.
std::string CityCsv(int rows) {
  static const char* const kCities[] = {"paris", "oslo", "lima", "cairo"};
  std::ostringstream csv;
  csv << "temperature,humidity,city,load\n";
  for (int t = 0; t < rows; ++t) {
    const double a = std::sin(0.05 * t), b = std::cos(0.031 * t);
    const int city = (t * 7) % 4;
    const double y = a * b + 0.3 * city + 0.1 * std::sin(0.9 * t);
    csv << (t % 97 == 5 ? std::string() : std::to_string(a)) << ','
        << (t % 89 == 7 ? std::string("NA") : std::to_string(b)) << ',' << kCities[city] << ','
        << y << '\n';
    if (t == 300) csv << "1,2,3,4,5\n";
    // A line of 5000 bytes: learned by default, too long for --max_line_bytes=4096.
    if (t == 400) csv << "0.5,0.25,oslo,0.1" << std::string(4983, '0') << "\n";
  }
  return csv.str();
}

std::string ReadBytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

TEST_CASE("An embedder's Stream builds the model `rffstream learn` builds, to the bit",
          "[stream][embedder]") {
  struct Case {
    const char* flags;
    rffstream::Precision precision;
    int block;
    int standardize = rffstream::ModelOptions().standardize;
    std::int64_t max_line_bytes = rffstream::InputOptions().max_line_bytes;
  };
  for (const Case& c : {Case{"", rffstream::Precision::kFloat32, 1},
                        Case{"--precision=float64 --block=8", rffstream::Precision::kFloat64, 8},
                        // Options an embedder sets weigh as flags do: the window is 100 lines.
                        Case{"--standardize=100 --max_line_bytes=4096",
                             rffstream::Precision::kFloat32, 1, 100, 4096}}) {
    INFO(c.flags);
    TempDir dir;
    const std::string csv = CityCsv(3000);
    const RunResult cli = RunApp(std::string("learn --header --features=128 --predictions=- --save=") +
                                     dir.File("cli.rff") + " " + c.flags,
                                 csv);
    INFO(cli.err);
    REQUIRE(cli.exit_code == 0);

    rffstream::PipelineSettings settings;
    settings.input.header = true;
    settings.model.features = 128;
    settings.model.precision = c.precision;
    settings.block_size = c.block;
    settings.model.standardize = c.standardize;
    settings.input.max_line_bytes = c.max_line_bytes;
    PredictionLines sink;
    absl::StatusOr<std::unique_ptr<rffstream::Stream>> stream =
        rffstream::Stream::Create(settings, sink);
    REQUIRE(stream.ok());
    for (const std::string& line : Lines(csv)) REQUIRE((*stream)->Push(line).ok());
    REQUIRE((*stream)->Finish().ok());
    REQUIRE((*stream)->Save(dir.File("embedded.rff")).ok());

    const int bytes_per_number = c.precision == rffstream::Precision::kFloat64 ? 8 : 4;
    CHECK((*stream)->bytes_per_number() == bytes_per_number);
    CHECK((*stream)->samples_learned() == (c.max_line_bytes == 4096 ? 3000 : 3001));
    CHECK(sink.lines == cli.out);
    CHECK(ReadBytes(dir.File("embedded.rff")) == ReadBytes(dir.File("cli.rff")));
    // With a window of 100 lines the width is chosen again at line 402
    // (bandwidth_follower.h): `learn`'s reading thread, which maps lines
    // ahead, drops the rows it mapped with the old one.
    if (c.standardize == 100) CHECK(cli.err.find("gamma (--gamma=auto) re-chosen") != std::string::npos);

    // Loaded again, it goes on as `learn --load` does.
    PredictionLines resumed_sink;
    absl::StatusOr<std::unique_ptr<rffstream::Stream>> resumed =
        rffstream::Stream::Load(dir.File("embedded.rff"), rffstream::PipelineSettings(),
                                resumed_sink);
    REQUIRE(resumed.ok());
    CHECK((*resumed)->samples_learned() == (*stream)->samples_learned());
    CHECK((*resumed)->task().num_inputs() == (*stream)->task().num_inputs());
  }
}

TEST_CASE("A Stream refuses options that cannot work, naming them", "[stream][embedder]") {
  rffstream::PipelineSettings settings;
  settings.model.gamma = -1.0;
  PredictionLines sink;
  const absl::StatusOr<std::unique_ptr<rffstream::Stream>> stream =
      rffstream::Stream::Create(settings, sink);
  REQUIRE(!stream.ok());
  CHECK(stream.status().message() == "--gamma=-1: must be a positive number (or auto, to choose it)");
  rffstream::PipelineSettings libsvm_without_dim;
  libsvm_without_dim.input.format = rffstream::InputFormat::kLibsvm;
  libsvm_without_dim.input.targets = "0,1";
  CHECK(rffstream::Stream::Create(libsvm_without_dim, sink).status().message() ==
        "--format=libsvm has one label: --targets and --ignore do not apply");
  const absl::StatusOr<std::unique_ptr<rffstream::Stream>> missing =
      rffstream::Stream::Load("/nonexistent/model.rff", rffstream::PipelineSettings(), sink);
  REQUIRE(!missing.ok());
  CHECK(std::string(missing.status().message()).find("/nonexistent/model.rff") !=
        std::string::npos);
}

}  // namespace
