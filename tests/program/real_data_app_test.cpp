// End-to-end tests of real-world CSV input: a text (category) column, missing
// values, rows without the target. The built binary, run with real files.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "tests/app_process.h"
#include "tests/serve_process.h"

namespace {

using namespace rffstream::testing;

// A house-price file: an id to ignore, two numbers, a city (text), an age
// with about 5 % of its fields empty or NA, and the price, which depends on
// the city by a factor of up to 1.6. Deterministic (a fixed linear
// congruential generator), so that every run sees the same file.
struct HouseFile {
  std::string csv = "id,sqft,rooms,city,age,price\n";
  int missing_ages = 0;
};

HouseFile MakeHouses(int lines) {
  const char* cities[] = {"paris", "lyon", "nice", "lille", "nantes", "rennes", "brest", "metz"};
  const double factors[] = {1.6, 1.0, 1.3, 0.8, 0.95, 0.85, 0.7, 0.75};
  std::uint64_t state = 12345;
  const auto uniform = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  };
  HouseFile file;
  for (int i = 0; i < lines; ++i) {
    const double sqft = 30 + 170 * uniform();
    const int rooms = 1 + static_cast<int>(sqft / 30);
    const int city = static_cast<int>(8 * uniform()) % 8;
    const double age = 80 * uniform();
    const double price = factors[city] * (3 * sqft + 5 * rooms) * (1 - 0.003 * age);
    std::string age_field = std::to_string(static_cast<int>(age));
    if (uniform() < 0.05) {
      age_field = i % 2 == 0 ? "" : "NA";
      ++file.missing_ages;
    }
    file.csv += std::to_string(1000 + i) + "," + std::to_string(sqft) + "," +
                std::to_string(rooms) + "," + cities[city] + "," + age_field + "," +
                std::to_string(price) + "\n";
  }
  return file;
}

// The rmse of the summary's "progressive validation: rmse X" line.
double SummaryRmse(const std::string& log) {
  const std::string key = "progressive validation: rmse ";
  const std::size_t at = log.find(key);
  REQUIRE(at != std::string::npos);
  return std::stod(log.substr(at + key.size()));
}

const std::string kHouseFlags = " --header --target=price --ignore=id --features=128";

TEST_CASE("A text column is read as categories and every line is learned",
          "[app][real_data][categorical]") {
  const HouseFile houses = MakeHouses(1500);
  REQUIRE(houses.missing_ages > 20);
  const RunResult learned = RunApp("learn" + kHouseFlags, houses.csv);
  CHECK(learned.exit_code == 0);
  CHECK(learned.err.find("finished: 1501 lines read, 1500 learned, 0 predicted only, 0 rejected") !=
        std::string::npos);
  // The city matters: leaving it out costs accuracy.
  const RunResult without_city =
      RunApp("learn --header --target=price --ignore=id,city --features=128", houses.csv);
  CHECK(without_city.exit_code == 0);
  CHECK(SummaryRmse(learned.err) < 0.5 * SummaryRmse(without_city.err));
}

TEST_CASE("Text in a column not read as categories is rejected with a hint naming the column",
          "[app][real_data][categorical][errors]") {
  const RunResult refused = RunApp("learn --categorical=none" + kHouseFlags, MakeHouses(20).csv);
  CHECK(refused.err.find("line 2: column 3 'city': '") != std::string::npos);
  CHECK(refused.err.find("' is not a number (a text column? declare it categorical) (skipped)") !=
        std::string::npos);
  // The summary groups them by cause, with the first of each.
  CHECK(refused.err.find("rejected lines by cause (the first of each):\n  20 x line 2: column 3 "
                         "'city': '") != std::string::npos);
  // Nothing could be learned: not a success.
  CHECK(refused.exit_code == 3);
}

TEST_CASE("A text column the first line leaves empty is found further on in a file",
          "[app][real_data][categorical]") {
  // The first house has no city: in a file the lines after it decide.
  HouseFile houses = MakeHouses(400);
  const std::size_t first = houses.csv.find('\n') + 1;
  std::size_t city = first;
  for (int comma = 0; comma < 3; ++comma) city = houses.csv.find(',', city) + 1;
  houses.csv.erase(city, houses.csv.find(',', city) - city);
  REQUIRE(houses.csv.substr(first, houses.csv.find('\n', first) - first).find(",,") !=
          std::string::npos);
  const RunResult from_file = RunApp("learn" + kHouseFlags, houses.csv);
  CHECK(from_file.exit_code == 0);
  CHECK(from_file.err.find("400 learned, 0 predicted only, 0 rejected") != std::string::npos);
  // The same without its header, behind a UTF-8 byte order mark.
  const std::string without_header = "\xEF\xBB\xBF" + houses.csv.substr(first);
  const RunResult marked = RunApp("learn --target=5 --ignore=0 --features=128", without_header);
  CHECK(marked.err.find("400 learned, 0 predicted only, 0 rejected") != std::string::npos);

  // On a pipe only the first line can decide: the city's lines are
  // rejected, and the summary names the flags that fix it.
  TempDir dir;
  const std::string input = dir.File("houses.csv"), log = dir.File("log");
  std::ofstream(input) << houses.csv;
  const std::string command = "cat " + input + " | " + std::string(RFFSTREAM_APP_PATH) +
                              " learn" + kHouseFlags + " > /dev/null 2> " + log;
  CHECK(std::system(command.c_str()) == 0);
  const std::string piped = ReadText(log);
  CHECK(piped.find("399 rejected") != std::string::npos);
  CHECK(piped.find("      the fix: --categorical=city (or --ignore=city to leave it out)") !=
        std::string::npos);
}

TEST_CASE("A declared category column, its buckets and a model that keeps them",
          "[app][real_data][categorical][checkpoint]") {
  TempDir dir;
  const std::string model = dir.File("houses.rff");
  const HouseFile houses = MakeHouses(600);
  const RunResult learned = RunApp(
      "learn --categorical=city --category_buckets=32 --save=" + model + kHouseFlags, houses.csv);
  REQUIRE(learned.exit_code == 0);
  // The loaded model reads the same columns as categories, whatever comes.
  const RunResult resumed = RunApp("learn --load=" + model, houses.csv);
  CHECK(resumed.exit_code == 0);
  CHECK(resumed.err.find("600 learned, 0 predicted only, 0 rejected") != std::string::npos);
  const RunResult conflict = RunApp("learn --category_buckets=16 --load=" + model, houses.csv);
  CHECK(conflict.exit_code == 2);
  CHECK(conflict.err.find("--category_buckets=16 (the model has 32)") != std::string::npos);
  CHECK(RunApp("learn --category_buckets=1" + kHouseFlags, houses.csv).exit_code == 2);
}

TEST_CASE("New data without the target column is predicted, unseen categories too",
          "[app][real_data][unlabelled]") {
  TempDir dir;
  const std::string model = dir.File("houses.rff");
  REQUIRE(RunApp("learn --quiet --save=" + model + kHouseFlags, MakeHouses(800).csv).exit_code ==
          0);
  const std::string new_data =
      "id,sqft,rooms,city,age\n"
      "1,100,4,paris,10\n"
      "2,100,4,lyon,10\n"
      "3,100,4,marseille,NA\n"
      "4,,4,paris,\n";
  const RunResult predicted = RunApp("predict --load=" + model, new_data);
  CHECK(predicted.exit_code == 0);
  const std::vector<std::string> answers = Lines(predicted.out);
  REQUIRE(answers.size() == 4);
  for (const std::string& answer : answers) CHECK(std::isfinite(std::stod(answer)));
  // Paris costs 1.6 times Lyon in the file.
  CHECK(std::stod(answers[0]) > 1.3 * std::stod(answers[1]));
  CHECK(predicted.err.find("4 predicted only, 0 rejected") != std::string::npos);
  // The inputs alone (without the ignored id) are new data too.
  const RunResult inputs_only =
      RunApp("predict --load=" + model, "sqft,rooms,city,age\n100,4,paris,10\n");
  CHECK(inputs_only.exit_code == 0);
  CHECK(Lines(inputs_only.out) == std::vector<std::string>{answers[0]});
  // A header that is neither is refused by name.
  const RunResult wrong = RunApp("predict --load=" + model, "sqft,city,age\n100,paris,10\n");
  CHECK(wrong.exit_code == 3);
  CHECK(wrong.err.find("nor those names without the target columns") != std::string::npos);
}

TEST_CASE("Without a header, each line's field count says whether it has its target",
          "[app][real_data][unlabelled]") {
  TempDir dir;
  const std::string model = dir.File("smooth.rff");
  REQUIRE(RunApp("learn --quiet --save=" + model, SmoothCsv(300)).exit_code == 0);
  const RunResult mixed = RunApp("predict --load=" + model, "0.5,0.5,0.7\n0.5,0.5\n1,2,3,4\n");
  CHECK(mixed.exit_code == 0);
  const std::vector<std::string> answers = Lines(mixed.out);
  REQUIRE(answers.size() == 3);
  CHECK(answers[0] == answers[1]);
  CHECK(answers[2].empty());
  CHECK(mixed.err.find("line 3: expected 3 fields, got 4") != std::string::npos);
  CHECK(mixed.err.find("1 scored, 1 predicted only, 1 rejected") != std::string::npos);
  // serve answers both kinds from any client (and learns the labelled one).
  ServerProcess server(dir, {"--load=" + model});
  Client client(server.port());
  client.Send("0.5,0.5\n0.5,0.5,0.7\n");
  const std::vector<std::string> served = client.ReadLines(2);
  REQUIRE(served.size() == 2);
  CHECK(served[0] == answers[0]);
  CHECK(served[1] == answers[0]);
  CHECK(server.Terminate() == 0);
}

TEST_CASE("A gzip input is read as its lines, a truncated one is named", "[app][real_data][gzip]") {
  TempDir dir;
  const std::string plain = dir.File("houses.csv"), packed = dir.File("houses.csv.gz");
  std::ofstream(plain) << MakeHouses(400).csv;
  REQUIRE(std::system(("gzip -c " + plain + " > " + packed).c_str()) == 0);
  const RunResult from_plain = RunApp("learn --predictions=- " + plain + kHouseFlags, "");
  const RunResult from_packed = RunApp("learn --predictions=- " + packed + kHouseFlags, "");
  CHECK(from_packed.exit_code == 0);
  CHECK(from_packed.out == from_plain.out);
  CHECK(Lines(from_packed.out).size() == 400);
  // Named otherwise, it is still known by its first bytes.
  const std::string unnamed = dir.File("houses.data");
  REQUIRE(std::system(("cp " + packed + " " + unnamed).c_str()) == 0);
  CHECK(RunApp("learn --predictions=- " + unnamed + kHouseFlags, "").out == from_plain.out);
  // Cut short: the lines before the cut are learned, and the run says what
  // happened and does not exit 0.
  const std::string bytes = ReadText(packed);
  const std::string cut = dir.File("cut.csv.gz");
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  const RunResult truncated = RunApp("learn " + cut + kHouseFlags, "");
  CHECK(truncated.exit_code == 1);
  CHECK(truncated.err.find(cut + ": the gzip data ends early (a truncated file)") !=
        std::string::npos);
  CHECK(RunApp("learn " + dir.File("none.csv.gz"), "").exit_code == 1);
  // Cut before its first line ends: still a failed input (1), not a run that
  // merely learned nothing (3).
  const std::string early = dir.File("early.csv.gz");
  std::ofstream(early, std::ios::binary) << bytes.substr(0, 20);
  const RunResult nothing = RunApp("learn " + early + kHouseFlags, "");
  CHECK(nothing.exit_code == 1);
  CHECK(nothing.err.find(early + ": the gzip data ends early") != std::string::npos);
}

TEST_CASE("A missing target makes a line predict-only, in learn too",
          "[app][real_data][unlabelled][missing]") {
  std::string csv = SmoothCsv(300);
  csv += "0.5,0.5,NA\n0.5,0.5,\n0.5,NA,?\n";
  const RunResult result = RunApp("learn --predictions=- --features=32", csv);
  CHECK(result.exit_code == 0);
  CHECK(result.err.find("303 lines read, 300 learned, 3 predicted only, 0 rejected") !=
        std::string::npos);
  const std::vector<std::string> lines = Lines(result.out);
  REQUIRE(lines.size() == 303);
  for (int i = 300; i < 303; ++i) CHECK(std::isfinite(std::stod(lines[i])));
}

}  // namespace
