#include "bench/proc_memory.h"

#include <fstream>
#include <sstream>

#include "absl/strings/match.h"

namespace nqueens::bench {

std::optional<uint64_t> ProcStatusBytes(const std::string& pid, const std::string& name) {
  std::ifstream status("/proc/" + pid + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (!absl::StartsWith(line, name + ":")) continue;
    std::istringstream fields(line.substr(name.size() + 1));
    uint64_t kib = 0;
    if (!(fields >> kib)) return std::nullopt;
    return kib * 1024;
  }
  return std::nullopt;
}

bool ResetPeakResidentBytes(const std::string& pid) {
  // "5" resets the peak resident size (proc(5), clear_refs).
  std::ofstream clear_refs("/proc/" + pid + "/clear_refs");
  clear_refs << "5";
  clear_refs.close();
  return static_cast<bool>(clear_refs);
}

}  // namespace nqueens::bench
