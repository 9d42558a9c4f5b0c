// The process metrics Prometheus clients of other languages export
// (process_cpu_seconds_total, process_resident_memory_bytes, ...), which
// prometheus-cpp lacks: read from /proc/self at each scrape. Linux only; a
// value that cannot be read is left out.
#ifndef NQUEENS_SERVER_OBSERVABILITY_PROCESS_METRICS_H_
#define NQUEENS_SERVER_OBSERVABILITY_PROCESS_METRICS_H_

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/string_view.h"

namespace nqueens::server {

class ProcessMetrics final : public prometheus::Collectable {
 public:
  std::vector<prometheus::MetricFamily> Collect() const override;
};

// What the metrics take from /proc/[pid]/stat (proc(5)).
struct ProcStat {
  uint64_t cpu_ticks = 0;    // user + system time (utime + stime)
  uint64_t start_ticks = 0;  // since boot (starttime)
  uint64_t virtual_bytes = 0;
  uint64_t resident_pages = 0;
};

// nullopt when `contents` is not a stat line.
std::optional<ProcStat> ParseProcStat(absl::string_view contents);

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_OBSERVABILITY_PROCESS_METRICS_H_
