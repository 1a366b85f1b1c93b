// --gamma=auto past the warm-up window (rffstream/stream/bandwidth_follower.h):
// the kernel's width chosen again by generalized cross-validation at 4 times
// the window's lines, shown in the summary and saved with the model; a
// model saved before its last choice goes on choosing after `learn --load`
// as if the stream had not been cut; not when the width was given; `serve`
// chooses as `learn` does and shows it in `!stats`.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/app_process.h"
#include "tests/serve_process.h"
#include "tests/temp_dir.h"

namespace {

using namespace rffstream::testing;

// The summary's "gamma ... re-chosen ... line L (N samples) A -> B" entries.
std::string GammaLine(const std::string& log) {
  const std::size_t at = log.find("gamma (--gamma=auto) re-chosen");
  if (at == std::string::npos) return "";
  return log.substr(at, log.find('\n', at) - at);
}

TEST_CASE("The bandwidth is chosen again as the stream grows, and a loaded model goes on",
          "[app][bandwidth_follower]") {
  TempDir dir;
  const std::string csv = FriedmanCsv(3000, 8);
  const RunResult whole =
      RunApp("learn --features=64 --predictions=- --save=" + dir.File("whole.rff"), csv);
  REQUIRE(whole.exit_code == 0);
  INFO(whole.err);
  const std::string line = GammaLine(whole.err);
  REQUIRE(line.find(": line 1024 (1024 samples) ") != std::string::npos);
  // The last choice is the model's width, saved with it.
  const std::string last = line.substr(line.rfind("-> ") + 3);
  const RunResult exported = RunApp("export --format=json --load=" + dir.File("whole.rff"), "");
  REQUIRE(exported.exit_code == 0);
  const std::size_t gamma = exported.out.find("\"gamma\": ");
  REQUIRE(gamma != std::string::npos);
  CHECK(std::stod(exported.out.substr(gamma + 9)) == Approx(std::stod(last)).epsilon(1e-5));

  // The same stream in two runs, cut after the first choice: the second
  // loads the first's model, whose checkpoint keeps the lines the next
  // choice is made on. The same answers, and the same model to the byte.
  const std::vector<std::string> lines = Lines(csv);
  std::string first, second;
  for (std::size_t i = 0; i < lines.size(); ++i) (i < 1500 ? first : second) += lines[i] + "\n";
  const RunResult part =
      RunApp("learn --features=64 --predictions=- --save=" + dir.File("part.rff"), first);
  REQUIRE(part.exit_code == 0);
  CHECK(GammaLine(part.err) == line);
  const RunResult resumed = RunApp("learn --predictions=- --load=" + dir.File("part.rff") +
                                       " --save=" + dir.File("resumed.rff"),
                                   second);
  REQUIRE(resumed.exit_code == 0);
  CHECK(part.out + resumed.out == whole.out);
  CHECK(ReadText(dir.File("resumed.rff")) == ReadText(dir.File("whole.rff")));
  CHECK(GammaLine(resumed.err) == line);

  // Not with a given width.
  const RunResult given = RunApp("learn --features=64 --gamma=0.05", csv);
  CHECK(given.exit_code == 0);
  CHECK(GammaLine(given.err).empty());
}

// The value after `key ` in a `!stats` answer ("samples 5 mse 0.1 ...").
std::string StatsField(const std::string& stats, const std::string& key) {
  const std::size_t at = stats.find(" " + key + " ");
  if (at == std::string::npos) return "";
  const std::size_t value = at + key.size() + 2;
  return stats.substr(value, stats.find(' ', value) - value);
}

TEST_CASE("serve chooses the bandwidth again as learn does, and !stats shows it",
          "[app][bandwidth_follower][serve]") {
  const std::string csv = FriedmanCsv(1100, 8);
  const RunResult learned = RunApp("learn --features=64", csv);
  REQUIRE(learned.exit_code == 0);
  const std::string line = GammaLine(learned.err);
  REQUIRE(line.find(": line 1024 (1024 samples) ") != std::string::npos);
  TempDir dir;
  ServerProcess server(dir, {"--features=64"});
  Client client(server.port());
  client.Send(csv + "!stats\n");
  const std::vector<std::string> answers = client.ReadLines(1101);
  REQUIRE(answers.size() == 1101);
  const std::string& stats = answers.back();
  INFO(stats);
  CHECK(StatsField(stats, "gamma_changes") == "1");
  CHECK(std::stod(StatsField(stats, "gamma")) ==
        Approx(std::stod(line.substr(line.rfind("-> ") + 3))).epsilon(1e-5));
  CHECK(!StatsField(stats, "ridge").empty());
  CHECK(!StatsField(stats, "ridge_changes").empty());
  CHECK(server.Terminate() == 0);
}

}  // namespace
