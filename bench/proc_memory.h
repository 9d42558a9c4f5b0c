// A process's resident memory as procfs reports it, for the benchmarks that
// measure memory (scale, stop latency, and the servers they start).
#ifndef NQUEENS_BENCH_PROC_MEMORY_H_
#define NQUEENS_BENCH_PROC_MEMORY_H_

#include <cstdint>
#include <optional>
#include <string>

namespace nqueens::bench {

// A "Name:   1234 kB" line of /proc/PID/status (PID "self" for this
// process), e.g. VmRSS or VmHWM, in bytes; nullopt when absent.
std::optional<uint64_t> ProcStatusBytes(const std::string& pid, const std::string& name);

// Lowers the process's VmHWM to its current resident size (Linux >= 4.0), so
// that the next reading is the peak of what follows only; false when it
// could not.
bool ResetPeakResidentBytes(const std::string& pid);

}  // namespace nqueens::bench

#endif  // NQUEENS_BENCH_PROC_MEMORY_H_
