// A child process for the end-to-end tests: started with posix_spawn, talked
// to through pipes, always reaped.
#ifndef NQUEENS_TESTS_CLIENT_SUBPROCESS_H_
#define NQUEENS_TESTS_CLIENT_SUBPROCESS_H_

#include <sys/types.h>

#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/string_view.h"

namespace nqueens::testing {

struct ProcessResult {
  int exit_code = -1;  // -1 when the child was killed by a signal
  std::string out;
  std::string err;
};

class Subprocess {
 public:
  // Starts argv[0] with argv. stdin and stdout are pipes; stderr is a pipe
  // when `capture_stderr`, else the file at `stderr_path` (made afresh) or,
  // without one, shared with the test (for servers, which log there for as
  // long as they run).
  explicit Subprocess(const std::vector<std::string>& argv, bool capture_stderr = true,
                      const std::string& stderr_path = "");
  // Kills the child with SIGTERM if it still runs (resuming it if it was
  // stopped), then reaps it. A child still there a minute later fails the
  // test, with its threads' stacks, and is killed.
  ~Subprocess();
  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;

  // Writes `input` to stdin and closes it, reads stdout and stderr to their
  // ends (all at once, so no pipe fills up) and waits for the exit.
  ProcessResult Communicate(absl::string_view input);

  // The next line of stdout without its newline; nullopt at its end.
  std::optional<std::string> ReadLine();
  // From now on reads and drops stdout in the background, so that a child
  // that keeps printing never blocks on a full pipe.
  void DiscardStdout();
  // Sends `signal` to the child, if it still runs; the destructor reaps it.
  void Signal(int signal);

 private:
  int Wait();

  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  int stderr_fd_ = -1;
  std::string pending_;  // read from stdout but not yet returned by ReadLine
  std::thread discarder_;
};

// Runs argv to completion with `input` on stdin.
ProcessResult Run(const std::vector<std::string>& argv, absl::string_view input = "");

}  // namespace nqueens::testing

#endif  // NQUEENS_TESTS_CLIENT_SUBPROCESS_H_
