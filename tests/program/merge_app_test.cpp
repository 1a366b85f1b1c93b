// End-to-end tests of `rffstream merge`: shards learned by separate `learn`
// processes from a common base, merged, against one process that learned
// every line; and the files it refuses.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "tests/app_process.h"

namespace {

using namespace rffstream::testing;

// Predictions of `model` for `input`, one number a line.
std::vector<double> Predictions(const std::string& model, const std::string& input) {
  const RunResult predicted = RunApp("predict --quiet --load=" + model, input);
  REQUIRE(predicted.exit_code == 0);
  std::vector<double> values;
  for (const std::string& line : Lines(predicted.out)) values.push_back(std::stod(line));
  return values;
}

TEST_CASE("merge: shards learned from one base equal one run over all their lines", "[app][merge]") {
  TempDir dir;
  // 1000 lines: none of the runs reaches 4 times the window, where --ridge=auto
  // chooses again (the next test).
  const std::vector<std::string> lines = Lines(SmoothCsv(1000));
  std::string warm_up, all_after, shards[3];
  for (std::size_t t = 0; t < lines.size(); ++t) {
    const std::string line = lines[t] + "\n";
    if (t < 400) {
      warm_up += line;
    } else {
      all_after += line;
      shards[t % 3] += line;
    }
  }
  // The base chooses the settings (standardization, bandwidth, ridge) on its
  // warm-up window; every shard continues from it, in float64, whose merges
  // are exact to its rounding.
  const std::string base = dir.File("base.rff");
  REQUIRE(RunApp("learn --quiet --features=64 --precision=float64 --save=" + base, warm_up)
              .exit_code == 0);
  std::string shard_files;
  for (int s = 0; s < 3; ++s) {
    const std::string file = dir.File("shard" + std::to_string(s) + ".rff");
    REQUIRE(RunApp("learn --quiet --load=" + base + " --save=" + file, shards[s]).exit_code == 0);
    shard_files += " " + file;
  }
  const std::string merged = dir.File("merged.rff"), single = dir.File("single.rff");
  const RunResult merging = RunApp("merge --base=" + base + " --save=" + merged + shard_files, "");
  REQUIRE(merging.exit_code == 0);
  CHECK(merging.err.find("3 models, 1000 samples in all, saved to " + merged) != std::string::npos);
  REQUIRE(RunApp("learn --quiet --load=" + base + " --save=" + single, all_after).exit_code == 0);
  std::string queries;
  for (int t = 0; t < 50; ++t) {
    queries += std::to_string(std::sin(0.013 * t)) + "," + std::to_string(std::cos(0.029 * t)) + "\n";
  }
  const std::vector<double> from_merged = Predictions(merged, queries);
  const std::vector<double> from_single = Predictions(single, queries);
  REQUIRE(from_merged.size() == 50);
  REQUIRE(from_single.size() == 50);
  for (std::size_t i = 0; i < from_merged.size(); ++i) {
    CHECK(from_merged[i] == Approx(from_single[i]).epsilon(1e-9).margin(1e-12));
  }
  // The merged metrics cover every line once: the base's and the shards'.
  const RunResult resumed = RunApp("learn --load=" + merged, "");
  CHECK(resumed.err.find("metrics cover all 1000 samples") != std::string::npos);
  // A merged model keeps its ridge (its shards' sums are not kept).
  const RunResult grown = RunApp("learn --load=" + merged, SmoothCsv(3000));
  CHECK(grown.exit_code == 0);
  CHECK(grown.err.find("re-chosen") == std::string::npos);
}

TEST_CASE("merge: a shard that chose its ridge again merges with the base's ridge",
          "[app][merge][ridge_follower]") {
  TempDir dir;
  const std::vector<std::string> lines = Lines(SmoothCsv(1700));
  std::string warm_up, after;
  for (std::size_t t = 0; t < lines.size(); ++t) (t < 400 ? warm_up : after) += lines[t] + "\n";
  // The width given, so that only the ridge follows the stream: shards
  // whose random features changed cannot merge.
  const std::string flags = " --features=64 --precision=float64 --gamma=0.5";
  const std::string base = dir.File("base.rff"), followed = dir.File("followed.rff"),
                    kept = dir.File("kept.rff");
  REQUIRE(RunApp("learn --quiet" + flags + " --save=" + base, warm_up).exit_code == 0);
  const RunResult chose = RunApp("learn" + flags + " --load=" + base + " --save=" + followed, after);
  REQUIRE(chose.exit_code == 0);
  REQUIRE(chose.err.find("ridge (--ridge=auto) re-chosen by generalized cross-validation: line 624") !=
          std::string::npos);
  // The same lines with the base's ridge given: the shard keeps it.
  const RunResult exported = RunApp("export --format=json --load=" + base, "");
  const std::size_t at = exported.out.find("\"ridge\": ");
  REQUIRE(at != std::string::npos);
  const std::string ridge = exported.out.substr(at + 9, exported.out.find_first_of(",\n", at) - at - 9);
  const RunResult given = RunApp("learn" + flags + " --ridge=" + ridge + " --load=" + base +
                                     " --save=" + kept, after);
  REQUIRE(given.exit_code == 0);
  CHECK(given.err.find("re-chosen") == std::string::npos);
  // Both merge into the model of the base's ridge on all the lines.
  const std::string from_followed = dir.File("m1.rff"), from_kept = dir.File("m2.rff");
  REQUIRE(RunApp("merge --base=" + base + " --save=" + from_followed + " " + followed, "").exit_code == 0);
  REQUIRE(RunApp("merge --base=" + base + " --save=" + from_kept + " " + kept, "").exit_code == 0);
  const std::string probe = SmoothCsv(30);
  const std::vector<double> a = Predictions(from_followed, probe), b = Predictions(from_kept, probe);
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i] == Approx(b[i]).margin(1e-9));
  CHECK(RunApp("export --format=json --load=" + from_followed, "").out.find("\"ridge\": " + ridge) !=
        std::string::npos);
  // With the width chosen too, a shard may choose it again: new random
  // features, which no merge can add up. The refusal names the flag.
  const std::string width_base = dir.File("width_base.rff"), width_shard = dir.File("width.rff");
  REQUIRE(RunApp("learn --quiet --features=64 --precision=float64 --save=" + width_base, warm_up)
              .exit_code == 0);
  const RunResult width = RunApp("learn --features=64 --precision=float64 --load=" + width_base +
                                     " --save=" + width_shard, after);
  REQUIRE(width.exit_code == 0);
  REQUIRE(width.err.find("gamma (--gamma=auto) re-chosen") != std::string::npos);
  const RunResult refused =
      RunApp("merge --base=" + width_base + " --save=" + dir.File("m3.rff") + " " + width_shard, "");
  CHECK(refused.exit_code != 0);
  CHECK(refused.err.find(width_shard + " chose its kernel's width again after the base " +
                         width_base + " (--gamma=auto, at line 624)") != std::string::npos);
  CHECK(refused.err.find("learn the shards with --gamma=") != std::string::npos);
}

TEST_CASE("merge refuses what it cannot merge exactly, by name", "[app][merge][errors]") {
  TempDir dir;
  const std::string a = dir.File("a.rff"), b = dir.File("b.rff"), c = dir.File("c.rff");
  const std::string flags = " --quiet --standardize=0 --gamma=0.5 --ridge=0.01";
  const std::string wide = " --precision=float64";
  REQUIRE(RunApp("learn --features=32" + wide + flags + " --save=" + a, SmoothCsv(50)).exit_code == 0);
  REQUIRE(RunApp("learn --features=64" + wide + flags + " --save=" + b, SmoothCsv(50)).exit_code == 0);
  REQUIRE(RunApp("learn --features=32 --precision=float32" + flags + " --save=" + c, SmoothCsv(50))
              .exit_code == 0);
  const std::string out = " --save=" + dir.File("out.rff");
  // Shards learned from scratch, each tuned on its own first lines: the
  // refusal says how shards share their settings.
  const std::vector<std::string> lines = Lines(SmoothCsv(1200));
  std::string first, second;
  for (std::size_t t = 0; t < lines.size(); ++t) (t < 600 ? first : second) += lines[t] + "\n";
  const std::string tuned_a = dir.File("tuned_a.rff"), tuned_b = dir.File("tuned_b.rff");
  REQUIRE(RunApp("learn --quiet --features=32 --save=" + tuned_a, first).exit_code == 0);
  REQUIRE(RunApp("learn --quiet --features=32 --save=" + tuned_b, second).exit_code == 0);
  CHECK(RunApp("merge" + out + " " + tuned_a + " " + tuned_b, "").err.find(
            "(each chose it on its own first lines: learn the shards from one base") !=
        std::string::npos);
  const RunResult different = RunApp("merge" + out + " " + a + " " + b, "");
  CHECK(different.exit_code == 1);
  CHECK(different.err.find(b + " and " + a + " are different models: features 64 against 32") !=
        std::string::npos);
  const RunResult precisions = RunApp("merge" + out + " " + a + " " + c, "");
  CHECK(precisions.exit_code == 1);
  CHECK(precisions.err.find(c + " is a float32 model, " + a + " a float64 one") != std::string::npos);
  const RunResult missing = RunApp("merge" + out + " " + a + " " + dir.File("none.rff"), "");
  CHECK(missing.exit_code == 1);
  CHECK(missing.err.find(dir.File("none.rff")) != std::string::npos);
  const RunResult no_save = RunApp("merge " + a, "");
  CHECK(no_save.exit_code == 2);
  CHECK(no_save.err.find("usage: rffstream merge --save=OUT [--base=BASE] IN1 [IN2 ...]") !=
        std::string::npos);
  const RunResult forgetting = RunApp("learn --forget=0.99 --features=32" + flags + " --save=" + b,
                                      SmoothCsv(50));
  REQUIRE(forgetting.exit_code == 0);
  CHECK(RunApp("merge" + out + " " + b, "").err.find("no merge is exact") != std::string::npos);
}

}  // namespace
