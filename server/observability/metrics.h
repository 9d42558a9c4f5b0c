// The service's Prometheus metrics. Every call of the server is counted, by
// method and status code, with its time and messages, by one interceptor
// (metrics_grpc.h: the standard grpc_server_* series). Our own calls feed
// the rest at two points: when a call leaves the worker queue (its wait) and
// when it finishes (Call::MarkFinished: its board size, outcome and
// exact-search nodes). The gauges of the service's state (calls in flight
// and queued, memory) are read when scraped instead of kept up to date by
// every call. Only counters, gauges and histograms: a scrape never shows NaN.
//
// Every series one of our calls touches is created up front, so recording a
// call is a few atomic adds and prometheus-cpp's per-histogram mutex: no
// allocation, hashing or lock of ours.
#ifndef NQUEENS_SERVER_OBSERVABILITY_METRICS_H_
#define NQUEENS_SERVER_OBSERVABILITY_METRICS_H_

#include <prometheus/collectable.h>
#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/histogram.h>
#include <prometheus/metric_family.h>
#include <prometheus/registry.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "server/observability/call_record.h"
#include "server/observability/metrics_grpc.h"

namespace nqueens::server {

// The buckets of the calls' seconds: from a small call's milliseconds to
// --max-call-seconds' default of 120 s.
prometheus::Histogram::BucketBoundaries CallSecondsBuckets();

// What nqueens_build_info shows: "1.0.0" and the git revision.
struct BuildInfo {
  std::string version;
  std::string revision;
};
// From a version line "PROGRAM VERSION (git REVISION, BUILD_TYPE build)";
// "unknown" for what it does not hold.
BuildInfo ParseVersionLine(absl::string_view line);

class CallMetrics {
 public:
  // The series of one of our methods (the grpc_server_* ones are grpc()'s).
  struct Method {
    prometheus::Histogram* board_rows = nullptr;
  };

  // `methods`: every method a call may name, e.g. "Solve"; `service`: their
  // service's full name, "nqueens.v1.NQueensService". The build info is this
  // binary's.
  CallMetrics(const std::vector<std::string>& methods,
              const std::string& service = "nqueens.v1.NQueensService");

  CallMetrics(const CallMetrics&) = delete;
  CallMetrics& operator=(const CallMetrics&) = delete;

  // `name` must be one of the constructor's methods.
  const Method& ForMethod(absl::string_view name) const { return methods_.at(name); }

  void RecordCall(const Method& method, const CallRecord& call);
  // How long a call waited for a worker.
  void RecordQueueWait(absl::Duration wait) { queue_wait_->Observe(absl::ToDoubleSeconds(wait)); }
  // An HTTP request the gateway refused before any call (404, 413, a body
  // that is no JSON, ...): no grpc_server_* series saw it.
  void CountHttpRefusal(int http_status);

  // The grpc_server_* series and the interceptor that feeds them.
  const GrpcServerMetrics& grpc() const { return grpc_; }

  // What a scrape reads.
  std::shared_ptr<prometheus::Collectable> collectable() const { return registry_; }

 private:
  // Owns every series below.
  const std::shared_ptr<prometheus::Registry> registry_;
  // Filled once: the references ForMethod gives stay valid.
  const absl::flat_hash_map<std::string, Method> methods_;
  const GrpcServerMetrics grpc_;
  // By CallOutcome: completions' and validations' in two families.
  const std::array<prometheus::Counter*, kCallOutcomeCount> outcome_counters_;
  prometheus::Counter* const exact_nodes_;
  prometheus::Histogram* const queue_wait_;
  prometheus::Family<prometheus::Counter>& http_refusals_;  // by HTTP status
};

// The service's state that its gauges show.
struct ServiceLoad {
  int calls_in_flight = 0;  // entered and not yet ended, queued ones included
  int calls_queued = 0;     // waiting for a worker
  uint64_t memory_reserved_bytes = 0;
  uint64_t memory_budget_bytes = 0;
};

// The gauges of ServiceLoad, from `read` at each scrape.
std::shared_ptr<prometheus::Collectable> MakeServiceLoadGauges(std::function<ServiceLoad()> read);

// A family of one series without labels.
prometheus::MetricFamily OneSeries(std::string name, std::string help, prometheus::MetricType type,
                                   double value);

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_OBSERVABILITY_METRICS_H_
