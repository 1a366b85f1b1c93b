// `rffstream learn` fed through a pipe that stays open, as a live stream is:
// the built binary as a child process, its standard input and output real
// pipes. Every read from the child times out instead of hanging the test.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tests/child_process.h"
#include "tests/temp_dir.h"

namespace {

constexpr std::chrono::milliseconds kTimeout(10000);

using rffstream::testing::TempDir;

class PipedLearn {
 public:
  explicit PipedLearn(std::vector<std::string> arguments) : log_(dir_.File("stderr")) {
    int input[2], output[2];
    REQUIRE(::pipe2(input, O_CLOEXEC) == 0);
    REQUIRE(::pipe2(output, O_CLOEXEC) == 0);
    std::vector<std::string> argv = {RFFSTREAM_APP_PATH, "learn", "--quiet"};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    pid_ = rffstream::testing::Spawn(std::move(argv), log_, input[0], output[1]);
    REQUIRE(pid_ > 0);
    ::close(input[0]);
    ::close(output[1]);
    to_child_ = input[1];
    from_child_ = output[0];
  }

  ~PipedLearn() {
    CloseInput();
    if (from_child_ >= 0) ::close(from_child_);
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }

  void Write(const std::string& text) {
    REQUIRE(::write(to_child_, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  }

  void CloseInput() {
    if (to_child_ >= 0) ::close(to_child_);
    to_child_ = -1;
  }

  // The next line the child writes, or nullopt if none comes within the timeout.
  std::optional<std::string> ReadLine() {
    while (true) {
      if (const std::size_t end = received_.find('\n'); end != std::string::npos) {
        std::string line = received_.substr(0, end);
        received_.erase(0, end + 1);
        return line;
      }
      pollfd readable = {from_child_, POLLIN, 0};
      if (::poll(&readable, 1, static_cast<int>(kTimeout.count())) != 1) return std::nullopt;
      char chunk[4096];
      const ssize_t got = ::read(from_child_, chunk, sizeof(chunk));
      if (got <= 0) return std::nullopt;
      received_.append(chunk, static_cast<std::size_t>(got));
    }
  }

  std::string Log() const { return rffstream::testing::ReadText(log_); }

  // The exit code, or -1 if the child did not exit within the timeout.
  int Wait() { return rffstream::testing::WaitForExit(pid_, kTimeout); }

  // A real signal, as Ctrl-C (SIGINT), kill (SIGTERM) or a hang-up sends it.
  void Signal(int signal) { REQUIRE(::kill(pid_, signal) == 0); }

  std::string File(const std::string& name) const { return dir_.File(name); }

 private:
  TempDir dir_;
  std::string log_;
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string received_;
};

std::string DataLine(int t) {
  const double a = std::sin(0.1 * t), b = std::cos(0.07 * t);
  return std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(a * b) + "\n";
}

bool IsNumber(const std::string& text) {
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return !text.empty() && *end == '\0';
}

TEST_CASE("learn answers each line of a live stream before the next one arrives", "[app][pipe]") {
  // From line 1 on, with the defaults: the warm-up window (256 lines, on
  // which the settings are chosen) is answered by the provisional model.
  PipedLearn learn({"--predictions=-", "--features=32"});
  for (int t = 0; t < 40; ++t) {
    learn.Write(t == 20 ? "not,a,number\n" : DataLine(t));
    const std::optional<std::string> line = learn.ReadLine();
    REQUIRE(line.has_value());  // answered while the input is still open
    CHECK(IsNumber(*line) == (t != 20));
  }
  learn.CloseInput();
  CHECK(!learn.ReadLine().has_value());  // nothing more than one line per line
  CHECK(learn.Wait() == 0);
  CHECK(learn.Log().find("line 21: column 0: 'not' is not a number (a text column? declare it categorical) (skipped)") != std::string::npos);
}

TEST_CASE("learn --strict stops at a malformed line of an open stream", "[app][pipe][errors]") {
  PipedLearn learn({"--predictions=-", "--features=16", "--standardize=0", "--strict"});
  std::string lines;
  for (int t = 0; t < 300; ++t) lines += DataLine(t);
  learn.Write(lines + "1,2,x\n" + DataLine(301));
  // The input stays open: the reading thread is stopped, not waited for.
  CHECK(learn.Wait() == 3);
  int answered = 0;
  while (learn.ReadLine().has_value()) ++answered;
  CHECK(answered == 300);
  CHECK(learn.Log().find("line 301: column 2: 'x' is not a number") != std::string::npos);
}

TEST_CASE("A signal stops learn in order: the lines read are learned, summarized and saved",
          "[app][pipe][signals]") {
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
    INFO("signal " << signal);
    TempDir dir;
    const std::string model = dir.File("model.rff");
    PipedLearn learn({"--predictions=-", "--features=16", "--standardize=0", "--gamma=0.5",
                      "--ridge=0.01", "--save=" + model});
    std::string lines;
    for (int t = 0; t < 120; ++t) lines += DataLine(t);
    learn.Write(lines);
    int answered = 0;
    while (answered < 120 && learn.ReadLine().has_value()) ++answered;
    REQUIRE(answered == 120);  // every line read has been learned
    // The input stays open, as a live stream's does.
    learn.Signal(signal);
    CHECK(learn.Wait() == 128 + signal);
    const std::string log = learn.Log();
    INFO(log);
    CHECK(log.find("signal " + std::to_string(signal) + ": stopped reading after line 120") !=
          std::string::npos);
    const std::string exported = dir.File("model.json");
    REQUIRE(std::system((std::string(RFFSTREAM_APP_PATH) + " export --load=" + model + " > " +
                         exported).c_str()) == 0);
    CHECK(rffstream::testing::ReadText(exported).find("\"samples_learned\": 120") !=
          std::string::npos);
  }
}

}  // namespace
