#include "bench/server_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "bench/common/clocks.h"
#include "bench/proc_memory.h"

extern char** environ;

namespace nqueens::bench {
namespace {

// The first line of `fd`, without its newline.
std::string ReadLine(int fd) {
  std::string line;
  char c;
  while (read(fd, &c, 1) == 1 && c != '\n') line += c;
  return line;
}

}  // namespace

void Fail(const std::string& message) {
  std::cerr << "error: " << message << "\n";
  std::exit(1);
}

ServerProcess::ServerProcess(const std::string& binary, const std::vector<std::string>& flags,
                             const std::string& log_path) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) Fail("pipe failed");
  std::vector<std::string> args = {binary, "--listen=127.0.0.1:0"};
  args.insert(args.end(), flags.begin(), flags.end());
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO,
                                   log_path.empty() ? "/dev/null" : log_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int error = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (error != 0) Fail(absl::StrCat("cannot start ", binary, ": ", std::strerror(error)));
  // The server prints "listening on HOST:PORT" once it accepts calls.
  const std::string line = ReadLine(pipe_fds[0]);
  close(pipe_fds[0]);
  const std::string prefix = "listening on ";
  if (!absl::StartsWith(line, prefix)) {
    Stop(SIGKILL);
    Fail(absl::StrCat("the server did not report its address (", binary, ")"));
  }
  address_ = line.substr(prefix.size());
}

ServerProcess::~ServerProcess() {
  if (pid_ > 0) Stop(SIGTERM);
}

uint64_t ServerProcess::ResidentBytes() const {
  return bench::ProcStatusBytes(std::to_string(pid_), "VmRSS").value_or(0);
}

uint64_t ServerProcess::PeakResidentBytes() const {
  return bench::ProcStatusBytes(std::to_string(pid_), "VmHWM").value_or(0);
}

void ServerProcess::ResetPeak() const { bench::ResetPeakResidentBytes(std::to_string(pid_)); }

namespace {

// The fields of a /proc/.../stat file after the parenthesised command name
// (the 3rd field of the whole line is the first); empty when unreadable.
std::vector<std::string> StatFields(const std::string& path) {
  std::ifstream stat(path);
  std::string contents((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const size_t close_paren = contents.rfind(')');
  if (close_paren == std::string::npos) return {};
  return absl::StrSplit(contents.substr(close_paren + 2), ' ', absl::SkipEmpty());
}

// utime + stime (the 14th and 15th fields) in seconds; 0 when unreadable.
double StatCpuSeconds(const std::vector<std::string>& fields) {
  uint64_t user = 0;
  uint64_t system = 0;
  if (fields.size() < 13 || !absl::SimpleAtoi(fields[11], &user) ||
      !absl::SimpleAtoi(fields[12], &system)) {
    return 0;
  }
  return static_cast<double>(user + system) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

}  // namespace

double ServerProcess::CpuSeconds() const {
  return StatCpuSeconds(StatFields(absl::StrCat("/proc/", pid_, "/stat")));
}

double ServerProcess::ThreadCpuSecondsAtNice(int nice) const {
  const std::string tasks = absl::StrCat("/proc/", pid_, "/task");
  double seconds = 0;
  std::error_code error;
  for (const auto& task : std::filesystem::directory_iterator(tasks, error)) {
    const std::vector<std::string> fields = StatFields(task.path().string() + "/stat");
    int task_nice = 0;
    // nice is the 19th field of the whole line.
    if (fields.size() > 16 && absl::SimpleAtoi(fields[16], &task_nice) && task_nice == nice) {
      seconds += StatCpuSeconds(fields);
    }
  }
  return seconds;
}

void ServerProcess::AwaitQuiet(double quiet_seconds, double limit_seconds) const {
  const Clock::time_point start = Clock::now();
  double last = CpuSeconds();
  Clock::time_point last_change = Clock::now();
  while (SecondsSince(start) < limit_seconds && SecondsSince(last_change) < quiet_seconds) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const double now = CpuSeconds();
    if (now != last) {
      last = now;
      last_change = Clock::now();
    }
  }
}

ServerProcess::Exit ServerProcess::Stop(int signal_number) {
  Exit exit;
  const Clock::time_point start = Clock::now();
  kill(pid_, signal_number);
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  exit.seconds = SecondsSince(start);
  exit.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  pid_ = -1;
  return exit;
}

}  // namespace nqueens::bench
