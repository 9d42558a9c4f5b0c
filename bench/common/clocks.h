// The clocks the benchmarks time with: elapsed time on the monotonic clock
// (absl::Now() and the system clock may be stepped while a run is timed),
// and the CPU time of this process or of one of its threads.
#ifndef NQUEENS_BENCH_COMMON_CLOCKS_H_
#define NQUEENS_BENCH_COMMON_CLOCKS_H_

#include <chrono>

namespace nqueens::bench {

// On Linux this is CLOCK_MONOTONIC, the clock other processes can report
// times on (bench/client_floor.cc).
using Clock = std::chrono::steady_clock;

// Seconds from `from` to `to`.
double SecondsBetween(Clock::time_point from, Clock::time_point to);

// Seconds from `start` to now.
double SecondsSince(Clock::time_point start);

// CPU seconds, user and system, this process has used on all its threads
// (those that have ended included).
double ProcessCpuSeconds();

// CPU seconds, user and system, the calling thread has used.
double ThreadCpuSeconds();

}  // namespace nqueens::bench

#endif  // NQUEENS_BENCH_COMMON_CLOCKS_H_
