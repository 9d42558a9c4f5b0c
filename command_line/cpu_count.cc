#include "command_line/cpu_count.h"

#include <sched.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"

namespace nqueens::command_line {
namespace {

int AffinityCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) {
    return std::max(1u, std::thread::hardware_concurrency());
  }
  return std::max(1, CPU_COUNT(&set));
}

std::optional<double> CgroupCpuQuota() {
  std::ifstream file("/sys/fs/cgroup/cpu.max");
  if (!file) return std::nullopt;
  std::stringstream contents;
  contents << file.rdbuf();
  return ParseCgroupCpuMax(contents.str());
}

}  // namespace

std::optional<double> ParseCgroupCpuMax(absl::string_view contents) {
  const std::vector<absl::string_view> fields =
      absl::StrSplit(absl::StripAsciiWhitespace(contents), ' ', absl::SkipEmpty());
  uint64_t quota = 0;
  uint64_t period = 0;
  if (fields.size() != 2 || !absl::SimpleAtoi(fields[0], &quota) ||
      !absl::SimpleAtoi(fields[1], &period) || quota == 0 || period == 0) {
    return std::nullopt;
  }
  return static_cast<double>(quota) / static_cast<double>(period);
}

int UsableCpus() {
  int cpus = AffinityCpus();
  if (const std::optional<double> quota = CgroupCpuQuota(); quota.has_value()) {
    cpus = std::min(cpus, std::max(1, static_cast<int>(std::ceil(*quota))));
  }
  return cpus;
}

}  // namespace nqueens::command_line
