// File: tests/child_process.h
//
// Small helpers for tests that run the built app as a child process.
#ifndef RFFSTREAM_TESTS_CHILD_PROCESS_H_
#define RFFSTREAM_TESTS_CHILD_PROCESS_H_

#include <fcntl.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace rffstream::testing {

// The whole file, or "" if it cannot be read.
inline std::string ReadText(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// Starts `argv` (the program's path first) with standard error written to
// `stderr_path` and, when given (>= 0), standard input and output on those
// descriptors. The child's pid, or -1 if it could not be started.
inline pid_t Spawn(std::vector<std::string> argv, const std::string& stderr_path,
                   int stdin_fd = -1, int stdout_fd = -1) {
  std::vector<char*> pointers;
  for (std::string& argument : argv) pointers.push_back(argument.data());
  pointers.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (stdin_fd >= 0) posix_spawn_file_actions_adddup2(&actions, stdin_fd, 0);
  if (stdout_fd >= 0) posix_spawn_file_actions_adddup2(&actions, stdout_fd, 1);
  posix_spawn_file_actions_addopen(&actions, 2, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  pid_t pid = -1;
  if (posix_spawn(&pid, pointers[0], &actions, nullptr, pointers.data(), environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  return pid;
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
