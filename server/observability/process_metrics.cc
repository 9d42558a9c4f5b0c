#include "server/observability/process_metrics.h"

#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "server/observability/metrics.h"

namespace nqueens::server {
namespace {

constexpr prometheus::MetricType kGauge = prometheus::MetricType::Gauge;

std::optional<std::string> ReadFile(const char* path) {
  std::ifstream file(path);
  if (!file) return std::nullopt;
  std::stringstream contents;
  contents << file.rdbuf();
  return contents.str();
}

// Seconds since the epoch at boot: the "btime" line of /proc/stat.
std::optional<uint64_t> BootTime() {
  const std::optional<std::string> stat = ReadFile("/proc/stat");
  if (!stat.has_value()) return std::nullopt;
  for (absl::string_view line : absl::StrSplit(*stat, '\n')) {
    uint64_t seconds = 0;
    if (absl::ConsumePrefix(&line, "btime ") && absl::SimpleAtoi(line, &seconds)) return seconds;
  }
  return std::nullopt;
}

std::optional<uint64_t> OpenFileDescriptors() {
  DIR* directory = opendir("/proc/self/fd");
  if (directory == nullptr) return std::nullopt;
  uint64_t entries = 0;
  while (const dirent* entry = readdir(directory)) {
    if (entry->d_name[0] != '.') ++entries;
  }
  closedir(directory);
  return entries - 1;  // the directory's own descriptor
}

// The series of /proc/self/stat; the start time also needs the boot time.
void AddStatSeries(const ProcStat& stat, std::vector<prometheus::MetricFamily>& families) {
  const double ticks_per_second = static_cast<double>(sysconf(_SC_CLK_TCK));
  families.push_back(OneSeries(
      "process_cpu_seconds_total", "Total user and system CPU time spent in seconds.",
      prometheus::MetricType::Counter, static_cast<double>(stat.cpu_ticks) / ticks_per_second));
  families.push_back(OneSeries("process_virtual_memory_bytes", "Virtual memory size in bytes.",
                               kGauge, static_cast<double>(stat.virtual_bytes)));
  families.push_back(OneSeries(
      "process_resident_memory_bytes", "Resident memory size in bytes.", kGauge,
      static_cast<double>(stat.resident_pages) * static_cast<double>(sysconf(_SC_PAGESIZE))));
  if (const std::optional<uint64_t> boot = BootTime(); boot.has_value()) {
    families.push_back(OneSeries(
        "process_start_time_seconds", "Start time of the process since unix epoch in seconds.",
        kGauge,
        static_cast<double>(*boot) + static_cast<double>(stat.start_ticks) / ticks_per_second));
  }
}

}  // namespace

std::optional<ProcStat> ParseProcStat(absl::string_view contents) {
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so
  // the fields start after the last ')'. Field 3 (state) is fields[0].
  const size_t comm_end = contents.rfind(')');
  if (comm_end == absl::string_view::npos) return std::nullopt;
  const std::vector<absl::string_view> fields =
      absl::StrSplit(contents.substr(comm_end + 1), ' ', absl::SkipWhitespace());
  const auto field = [&fields](int number, uint64_t& value) {
    return static_cast<size_t>(number - 3) < fields.size() &&
           absl::SimpleAtoi(fields[number - 3], &value);
  };
  ProcStat stat;
  uint64_t user_ticks = 0;
  uint64_t system_ticks = 0;
  if (!field(14, user_ticks) || !field(15, system_ticks) || !field(22, stat.start_ticks) ||
      !field(23, stat.virtual_bytes) || !field(24, stat.resident_pages)) {
    return std::nullopt;
  }
  stat.cpu_ticks = user_ticks + system_ticks;
  return stat;
}

std::vector<prometheus::MetricFamily> ProcessMetrics::Collect() const {
  std::vector<prometheus::MetricFamily> families;
  const std::optional<std::string> contents = ReadFile("/proc/self/stat");
  if (const std::optional<ProcStat> stat = contents ? ParseProcStat(*contents) : std::nullopt) {
    AddStatSeries(*stat, families);
  }
  if (const std::optional<uint64_t> open = OpenFileDescriptors(); open.has_value()) {
    families.push_back(OneSeries("process_open_fds", "Number of open file descriptors.", kGauge,
                                 static_cast<double>(*open)));
  }
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
    families.push_back(OneSeries("process_max_fds", "Maximum number of open file descriptors.",
                                 kGauge, static_cast<double>(limit.rlim_cur)));
  }
  return families;
}

}  // namespace nqueens::server
