// A real nqueens-server started by a benchmark as a child process on
// 127.0.0.1 port 0, with what the benchmarks read of it: its address, its
// resident memory, and how it exits. Stopped with SIGTERM when destroyed.
#ifndef NQUEENS_BENCH_SERVER_PROCESS_H_
#define NQUEENS_BENCH_SERVER_PROCESS_H_

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace nqueens::bench {

class ServerProcess {
 public:
  // Starts `binary` with --listen=127.0.0.1:0 and `flags`; its log goes to
  // `log_path` (or is dropped when empty). Exits the program when the server
  // does not report its address.
  ServerProcess(const std::string& binary, const std::vector<std::string>& flags,
                const std::string& log_path = "");
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;
  ~ServerProcess();

  const std::string& address() const { return address_; }
  pid_t pid() const { return pid_; }

  // /proc/PID/status: VmRSS, and VmHWM (the peak since start or ResetPeak).
  uint64_t ResidentBytes() const;
  uint64_t PeakResidentBytes() const;
  void ResetPeak() const;
  // CPU seconds the server has used (user + system).
  double CpuSeconds() const;
  // The same, over the server's threads that run at this nice value (its
  // workers run at 5: server/limits/worker_pool.cc). Threads that have ended are
  // not counted.
  double ThreadCpuSecondsAtNice(int nice) const;
  // Waits until the server has used no CPU for `quiet` (at most `limit`
  // seconds): its calls and their clean-up are over.
  void AwaitQuiet(double quiet_seconds, double limit_seconds) const;

  struct Exit {
    int status = -1;     // the exit code, -1 when killed by a signal
    double seconds = 0;  // from the signal to the exit
  };
  // Sends `signal_number` and waits for the exit.
  Exit Stop(int signal_number);

 private:
  pid_t pid_ = -1;
  std::string address_;
};

// Exits the program with `message` on stderr.
[[noreturn]] void Fail(const std::string& message);

}  // namespace nqueens::bench

#endif  // NQUEENS_BENCH_SERVER_PROCESS_H_
