// The app's command line as a user meets it: --help, --version, misspelled
// flags and bad values (the built binary, run by the shell).
#include "cli/command_line.h"
#include "cli/command_shorthands.h"

#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/child_process.h"
#include "tests/temp_dir.h"

namespace {

using rffstream::testing::TempDir;

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

RunResult Run(const std::string& arguments) {
  TempDir dir;
  const std::string out = dir.File("out"), err = dir.File("err");
  const int status = std::system((std::string(RFFSTREAM_APP_PATH) + " " + arguments +
                                  " < /dev/null > " + out + " 2> " + err)
                                     .c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, rffstream::testing::ReadText(out),
          rffstream::testing::ReadText(err)};
}

TEST_CASE("The help flag prints every flag to standard output and exits 0", "[command_line]") {
  for (const char* help : {"--help", "-h", "--helpfull"}) {
    INFO(help);
    const RunResult result = Run(help);
    CHECK(result.exit_code == 0);
    CHECK(result.err.empty());
    CHECK(result.out.find("usage: rffstream COMMAND") != std::string::npos);
    CHECK(result.out.find("--save_every") != std::string::npos);
    CHECK(result.out.find("laplacian") != std::string::npos);  // every kernel, not only gaussian
    CHECK(result.out.find("Flags from") == std::string::npos);  // no build paths
    CHECK(result.out.find(".cpp") == std::string::npos);
  }
}

TEST_CASE("The version flag names the version and the build", "[command_line]") {
  const RunResult result = Run("--version");
  CHECK(result.exit_code == 0);
  CHECK(result.out.rfind("rffstream 0.", 0) == 0);
#ifdef NDEBUG
  CHECK(result.out.find("release build") != std::string::npos);
#endif
  CHECK(result.out.find("NDEBUG") == std::string::npos);
}

TEST_CASE("A command's help shows its flags only, in lines of at most 100 columns",
          "[command_line]") {
  const RunResult learn = Run("learn --help");
  CHECK(learn.exit_code == 0);
  CHECK(learn.out.rfind("rffstream learn: the flags of this command", 0) == 0);
  CHECK(learn.out.find("--save_every") != std::string::npos);
  CHECK(learn.out.find("--categorical") != std::string::npos);
  CHECK(learn.out.find("--listen") == std::string::npos);  // serve's
  CHECK(learn.out.find("--series") == std::string::npos);  // generate's
  const RunResult serve = Run("serve --help");
  CHECK(serve.out.find("--listen") != std::string::npos);
  for (const std::string& text : {learn.out, serve.out, Run("--help").out}) {
    std::size_t start = 0;
    while (start < text.size()) {
      const std::size_t end = text.find('\n', start);
      CHECK((end == std::string::npos ? text.size() : end) - start <= 100);
      start = end == std::string::npos ? text.size() : end + 1;
    }
  }
}

TEST_CASE("A flag the command does not read exits 2, naming the commands that do",
          "[command_line][errors]") {
  // Each would otherwise be ignored: no model saved, a file not read.
  for (const auto& [arguments, message] : std::vector<std::pair<std::string, std::string>>{
           {"predict --load=m.rff --save=n.rff", "--save: predict does not read this flag "
                                                 "(learn, serve, merge do)"},
           {"learn -t -i m.rff -f n.rff", "--save: predict does not read this flag"},
           {"serve --input=data.csv", "--input: serve does not read this flag (learn, predict do)"},
           {"merge --features=8 --save=m.rff a.rff b.rff", "--features: merge does not read"},
           {"generate --input=data.csv", "--input: generate does not read"},
           {"learn --series=lorenz", "--series: learn does not read this flag (generate does)"},
           {"export m.rff", "export takes no argument 'm.rff': files are given by flags"}}) {
    INFO(arguments);
    const RunResult result = Run(arguments);
    CHECK(result.exit_code == 2);
    CHECK(result.err.find(message) != std::string::npos);
  }
  // The help of merge and export lists what they read.
  const RunResult merge = Run("merge --help"), exported = Run("export --help");
  CHECK(merge.out.find("--save ") != std::string::npos);
  CHECK(merge.out.find("--base ") != std::string::npos);
  CHECK(merge.out.find("--series") == std::string::npos);
  CHECK(exported.out.find("--load ") != std::string::npos);
  CHECK(exported.out.find("--format ") != std::string::npos);
  CHECK(exported.out.find("--samples") == std::string::npos);
}

TEST_CASE("A misspelled flag exits 2 with the closest name", "[command_line][errors]") {
  const RunResult result = Run("learn --featurs=64");
  CHECK(result.exit_code == 2);
  CHECK(result.err == "rffstream: unknown flag --featurs; did you mean --features? (rffstream "
                      "--help lists the flags)\n");
  CHECK(Run("learn --zzzzzzzzzzzz").err.find("did you mean") == std::string::npos);
  const RunResult bad_value = Run("learn --features=many");
  CHECK(bad_value.exit_code == 2);
  CHECK(bad_value.err.find("rffstream: --features=many: ") == 0);
}

TEST_CASE("An unknown command exits 2 with the closest one", "[command_line][errors]") {
  const RunResult result = Run("lern data.csv");
  CHECK(result.exit_code == 2);
  CHECK(result.err.rfind("rffstream: unknown command 'lern'; did you mean learn?\n", 0) == 0);
  CHECK(Run("zzzzzz").err.find("did you mean") == std::string::npos);
}

TEST_CASE("Vowpal Wabbit's short options and a positional input are the long flags",
          "[command_line]") {
  using rffstream::app::ExpandShorthands;
  const auto expand = [](std::vector<std::string> arguments) {
    absl::StatusOr<std::vector<std::string>> expanded = ExpandShorthands(std::move(arguments));
    REQUIRE(expanded.ok());
    return *expanded;
  };
  CHECK(expand({"rffstream", "learn", "data.csv", "-f", "m.rff", "-p=p.txt", "--features", "64"}) ==
        std::vector<std::string>{"rffstream", "learn", "--input=data.csv", "--save=m.rff",
                                 "--predictions=p.txt", "--features", "64"});
  CHECK(expand({"rffstream", "learn", "-t", "-i", "m.rff", "-d", "new.csv"}) ==
        std::vector<std::string>{"rffstream", "predict", "--load=m.rff", "--input=new.csv"});
  // A flag's value is not a positional input, nor are merge's files.
  CHECK(expand({"rffstream", "learn", "--predictions", "p.txt"}) ==
        std::vector<std::string>{"rffstream", "learn", "--predictions", "p.txt"});
  CHECK(expand({"rffstream", "learn", "-predictions", "p.txt", "s.csv"}) ==
        std::vector<std::string>{"rffstream", "learn", "-predictions", "p.txt", "--input=s.csv"});
  CHECK(expand({"rffstream", "merge", "--save=m", "a", "b"}) ==
        std::vector<std::string>{"rffstream", "merge", "--save=m", "a", "b"});
  CHECK(ExpandShorthands({"rffstream", "learn", "a.csv", "b.csv"}).status().message() ==
        "rffstream learn reads one input: 'b.csv' is a second (give one file)");
  CHECK(ExpandShorthands({"rffstream", "learn", "-f"}).status().message() ==
        "-f needs a value (-f FILE is --save=FILE)");
  CHECK_FALSE(ExpandShorthands({"rffstream", "serve", "-t"}).ok());
  // A file argument and --input (or -d) are two inputs, whichever comes first.
  for (const std::vector<std::string>& two : std::vector<std::vector<std::string>>{
           {"rffstream", "learn", "a.csv", "--input=b.csv"},
           {"rffstream", "learn", "-d", "b.csv", "a.csv"},
           {"rffstream", "predict", "--input", "b.csv", "a.csv"}}) {
    CHECK(ExpandShorthands(two).status().message().find("a file argument and --input") !=
          std::string::npos);
  }
}

TEST_CASE("Flag names may be written with dashes", "[command_line]") {
  const std::vector<std::string> arguments = rffstream::app::NormalizeFlagNames(
      6, std::vector<char*>{const_cast<char*>("rffstream"), const_cast<char*>("learn"),
                            const_cast<char*>("--save-every=10"), const_cast<char*>("--max-line-bytes"),
                            const_cast<char*>("a-b"), const_cast<char*>("--predictions=-")}
             .data());
  CHECK(arguments == std::vector<std::string>{"rffstream", "learn", "--save_every=10",
                                              "--max_line_bytes", "a-b", "--predictions=-"});
  // The value of "--flag value" is not a flag, even when it starts with a dash.
  std::vector<char*> with_value{const_cast<char*>("rffstream"), const_cast<char*>("learn"),
                                const_cast<char*>("--input"), const_cast<char*>("-my-data.csv")};
  CHECK(rffstream::app::NormalizeFlagNames(4, with_value.data())[3] == "-my-data.csv");
  // End to end: --progress-every is --progress_every (and learns a line).
  TempDir dir;
  std::ofstream(dir.File("line.csv")) << "0.5,1\n";
  const RunResult result =
      Run("learn --progress-every=1 --no-intercept --quiet --input=" + dir.File("line.csv"));
  CHECK(result.exit_code == 0);
}

}  // namespace
