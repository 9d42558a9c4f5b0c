// How many CPUs this process may use: the default number of the server's
// workers, the client's --local threads and the checker's threads.
// std::thread::hardware_concurrency() counts the machine's CPUs and ignores
// both the affinity mask (taskset, Kubernetes' static CPU manager) and the
// cgroup's CPU quota (a container's CPU limit).
#ifndef NQUEENS_COMMAND_LINE_CPU_COUNT_H_
#define NQUEENS_COMMAND_LINE_CPU_COUNT_H_

#include <optional>

#include "absl/strings/string_view.h"

namespace nqueens::command_line {

// The smaller of the CPUs in the affinity mask and the cgroup v2 quota
// (/sys/fs/cgroup/cpu.max) rounded up; at least 1.
int UsableCpus();

// The quota in CPUs from the contents of cpu.max ("QUOTA PERIOD", e.g.
// "150000 100000" is 1.5); nullopt for "max ..." (no limit) or anything
// unreadable.
std::optional<double> ParseCgroupCpuMax(absl::string_view contents);

}  // namespace nqueens::command_line

#endif  // NQUEENS_COMMAND_LINE_CPU_COUNT_H_
