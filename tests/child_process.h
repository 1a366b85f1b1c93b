// File: tests/child_process.h
//
// Small helpers for tests that run the built app as a child process.
#ifndef RFFSTREAM_TESTS_CHILD_PROCESS_H_
#define RFFSTREAM_TESTS_CHILD_PROCESS_H_

#include <sys/types.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace rffstream::testing {

// The whole file, or "" if it cannot be read.
inline std::string ReadText(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// Waits up to `timeout` for the child to exit: its exit code (-1 if a signal
// ended it), and pid set to -1; or -1 with pid unchanged if it is still running.
inline int WaitForExit(pid_t& pid, std::chrono::milliseconds timeout) {
  constexpr std::chrono::milliseconds kPoll(10);
  for (std::chrono::milliseconds waited(0); waited < timeout; waited += kPoll) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      pid = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    std::this_thread::sleep_for(kPoll);
  }
  return -1;
}

}  // namespace rffstream::testing

#endif  // RFFSTREAM_TESTS_CHILD_PROCESS_H_
