#include "subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

extern char** environ;

namespace nqueens::testing {
namespace {

// Failures of the test machinery itself; no test can go on after them.
void Check(bool ok, const char* what) {
  if (ok) return;
  std::perror(what);
  std::abort();
}

struct Pipe {
  int read_end = -1;
  int write_end = -1;
};

// Both ends close on exec; the child gets its end through dup2, which clears
// the flag on the copy.
Pipe MakePipe() {
  int fds[2];
  Check(pipe2(fds, O_CLOEXEC) == 0, "pipe2");
  return Pipe{fds[0], fds[1]};
}

void Close(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// Appends what is there to read from `fd` to `out`; closes it at its end.
void ReadSome(int& fd, std::string& out) {
  char buffer[1 << 16];
  const ssize_t got = read(fd, buffer, sizeof buffer);
  if (got > 0) {
    out.append(buffer, static_cast<size_t>(got));
  } else if (got == 0 || errno != EINTR) {
    Close(fd);
  }
}

// How long a child may take to end after SIGTERM before the test reports it
// as hung: well within the tests' timeout, so that the report is seen.
constexpr int kExitWaitSeconds = 60;

// Whether `pid` ended within `seconds` (it stays to be reaped).
bool EndsWithin(pid_t pid, int seconds) {
  const int fd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  Check(fd >= 0, "pidfd_open");
  pollfd ended = {fd, POLLIN, 0};
  int ready;
  while ((ready = poll(&ended, 1, seconds * 1000)) < 0) Check(errno == EINTR, "poll");
  close(fd);
  return ready > 0;
}

// Prints the stacks of the hung `pid`'s threads (with gdb, where there is
// one: a hang no run here reproduced needs them), then kills it.
void ReportHang(pid_t pid) {
  std::fprintf(stderr, "subprocess %d did not end within %d s of SIGTERM; its threads:\n", pid,
               kExitWaitSeconds);
  const std::string stacks =
      absl::StrCat("gdb -batch -nx -p ", pid, " -ex 'thread apply all bt' 1>&2");
  if (std::system(stacks.c_str()) != 0) std::fprintf(stderr, "(gdb could not say)\n");
  kill(pid, SIGKILL);
}

}  // namespace

Subprocess::Subprocess(const std::vector<std::string>& argv, bool capture_stderr,
                       const std::string& stderr_path) {
  // Writing to a child that has already exited must fail with EPIPE rather
  // than kill the test; the child gets the default action back below.
  std::signal(SIGPIPE, SIG_IGN);
  Pipe in = MakePipe();
  Pipe out = MakePipe();
  Pipe err = capture_stderr ? MakePipe() : Pipe{};

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.read_end, STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out.write_end, STDOUT_FILENO);
  if (capture_stderr) {
    posix_spawn_file_actions_adddup2(&actions, err.write_end, STDERR_FILENO);
  } else if (!stderr_path.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_path.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t default_signals;
  sigemptyset(&default_signals);
  sigaddset(&default_signals, SIGPIPE);
  posix_spawnattr_setsigdefault(&attributes, &default_signals);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);

  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const int spawned = posix_spawn(&pid_, args[0], &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  Close(in.read_end);
  Close(out.write_end);
  Close(err.write_end);
  errno = spawned;
  Check(spawned == 0, args[0]);
  stdin_fd_ = in.write_end;
  stdout_fd_ = out.read_end;
  stderr_fd_ = err.read_end;
}

Subprocess::~Subprocess() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    kill(pid_, SIGCONT);  // a child that a test stopped takes SIGTERM once it runs
    if (!EndsWithin(pid_, kExitWaitSeconds)) {
      ReportHang(pid_);
      ADD_FAILURE() << "subprocess " << pid_ << " hung after SIGTERM (its stacks are above)";
    }
    Wait();
  }
  if (discarder_.joinable()) discarder_.join();
  Close(stdin_fd_);
  Close(stdout_fd_);
  Close(stderr_fd_);
}

ProcessResult Subprocess::Communicate(absl::string_view input) {
  ProcessResult result;
  result.out = std::move(pending_);
  if (input.empty()) Close(stdin_fd_);
  while (stdin_fd_ >= 0 || stdout_fd_ >= 0 || stderr_fd_ >= 0) {
    pollfd fds[3];
    nfds_t count = 0;
    if (stdin_fd_ >= 0) fds[count++] = {stdin_fd_, POLLOUT, 0};
    if (stdout_fd_ >= 0) fds[count++] = {stdout_fd_, POLLIN, 0};
    if (stderr_fd_ >= 0) fds[count++] = {stderr_fd_, POLLIN, 0};
    if (poll(fds, count, -1) < 0) {
      Check(errno == EINTR, "poll");
      continue;
    }
    for (nfds_t i = 0; i < count; ++i) {
      if (fds[i].revents == 0) continue;
      if (fds[i].fd == stdout_fd_) {
        ReadSome(stdout_fd_, result.out);
      } else if (fds[i].fd == stderr_fd_) {
        ReadSome(stderr_fd_, result.err);
      } else {
        const ssize_t wrote = write(stdin_fd_, input.data(), input.size());
        if (wrote > 0) input.remove_prefix(static_cast<size_t>(wrote));
        if ((wrote < 0 && errno != EINTR) || input.empty()) Close(stdin_fd_);
      }
    }
  }
  result.exit_code = Wait();
  return result;
}

std::optional<std::string> Subprocess::ReadLine() {
  size_t newline;
  while ((newline = pending_.find('\n')) == std::string::npos) {
    if (stdout_fd_ < 0) return std::nullopt;
    ReadSome(stdout_fd_, pending_);
  }
  std::string line = pending_.substr(0, newline);
  pending_.erase(0, newline + 1);
  return line;
}

void Subprocess::DiscardStdout() {
  discarder_ = std::thread([fd = stdout_fd_] {
    char buffer[4096];
    for (;;) {
      const ssize_t got = read(fd, buffer, sizeof buffer);
      if (got == 0 || (got < 0 && errno != EINTR)) return;
    }
  });
}

void Subprocess::Signal(int signal) {
  if (pid_ > 0) kill(pid_, signal);
}

int Subprocess::Wait() {
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0) Check(errno == EINTR, "waitpid");
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

ProcessResult Run(const std::vector<std::string>& argv, absl::string_view input) {
  Subprocess process(argv);
  return process.Communicate(input);
}

}  // namespace nqueens::testing
