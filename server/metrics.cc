#include "server/metrics.h"

#include <prometheus/client_metric.h>
#include <prometheus/family.h>
#include <prometheus/metric_type.h>

#include <utility>

#include "absl/status/status.h"

namespace nqueens::server {
namespace {

// From a small call's milliseconds to --max-call-seconds' default of 120 s.
prometheus::Histogram::BucketBoundaries CallSecondsBuckets() {
  return {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120};
}
// A free worker takes a call within microseconds; a saturated server makes
// calls wait as long as the calls ahead of them run.
prometheus::Histogram::BucketBoundaries QueueWaitBuckets() {
  return {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
          0.1,    0.25,    0.5,    1,     2.5,    5,     10,   30,    60};
}
// Powers of ten up to --max-n's default of 10^8.
prometheus::Histogram::BucketBoundaries BoardRowsBuckets() {
  return {10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
}

CallMetrics::Method MethodSeries(const std::string& name,
                                 prometheus::Family<prometheus::Counter>& calls,
                                 prometheus::Family<prometheus::Histogram>& seconds,
                                 prometheus::Family<prometheus::Histogram>& board_rows) {
  CallMetrics::Method method;
  for (int code = 0; code < kStatusCodeCount; ++code) {
    method.calls_by_code[code] =
        &calls.Add({{"method", name},
                    {"code", absl::StatusCodeToString(static_cast<absl::StatusCode>(code))}});
  }
  method.seconds = &seconds.Add({{"method", name}}, CallSecondsBuckets());
  method.board_rows = &board_rows.Add({{"method", name}}, BoardRowsBuckets());
  return method;
}

absl::flat_hash_map<std::string, CallMetrics::Method> MethodSeriesByName(
    const std::vector<std::string>& methods, prometheus::Registry& registry) {
  auto& calls = prometheus::BuildCounter()
                    .Name("nqueens_calls_total")
                    .Help("Calls ended, by method and status code.")
                    .Register(registry);
  auto& seconds = prometheus::BuildHistogram()
                      .Name("nqueens_call_seconds")
                      .Help("Time from a call's arrival to its end, queueing included.")
                      .Register(registry);
  auto& board_rows = prometheus::BuildHistogram()
                         .Name("nqueens_board_rows")
                         .Help("Board size n of the calls whose request gave one.")
                         .Register(registry);
  absl::flat_hash_map<std::string, CallMetrics::Method> series;
  for (const std::string& name : methods) {
    series.emplace(name, MethodSeries(name, calls, seconds, board_rows));
  }
  return series;
}

// By CallOutcome; none for kNone.
std::array<prometheus::Counter*, kCallOutcomeCount> OutcomeCounters(
    prometheus::Registry& registry) {
  auto& outcomes = prometheus::BuildCounter()
                       .Name("nqueens_outcomes_total")
                       .Help(
                           "What the calls' work concluded: SOLVED, UNSOLVABLE or UNDECIDED for "
                           "completions, complete, valid or invalid for validations.")
                       .Register(registry);
  std::array<prometheus::Counter*, kCallOutcomeCount> counters{};
  for (int outcome = 0; outcome < kCallOutcomeCount; ++outcome) {
    const CallOutcome known = static_cast<CallOutcome>(outcome);
    if (known != CallOutcome::kNone) {
      counters[outcome] = &outcomes.Add({{"outcome", CallOutcomeName(known)}});
    }
  }
  return counters;
}

class ServiceLoadGauges final : public prometheus::Collectable {
 public:
  explicit ServiceLoadGauges(std::function<ServiceLoad()> read) : read_(std::move(read)) {}

  std::vector<prometheus::MetricFamily> Collect() const override {
    const ServiceLoad load = read_();
    constexpr prometheus::MetricType kGauge = prometheus::MetricType::Gauge;
    return {
        OneSeries("nqueens_calls_in_flight",
                  "Calls the server has accepted and not yet ended, queued ones included.", kGauge,
                  load.calls_in_flight),
        OneSeries("nqueens_calls_queued", "Calls waiting for a worker thread.", kGauge,
                  load.calls_queued),
        OneSeries("nqueens_memory_reserved_bytes",
                  "Bytes of the memory budget reserved now, the workers' fixed part included.",
                  kGauge, static_cast<double>(load.memory_reserved_bytes)),
        OneSeries("nqueens_memory_budget_bytes", "The memory budget (--memory-budget).", kGauge,
                  static_cast<double>(load.memory_budget_bytes)),
    };
  }

 private:
  const std::function<ServiceLoad()> read_;
};

}  // namespace

CallMetrics::CallMetrics(const std::vector<std::string>& methods)
    : registry_(std::make_shared<prometheus::Registry>()),
      methods_(MethodSeriesByName(methods, *registry_)),
      outcome_counters_(OutcomeCounters(*registry_)),
      exact_nodes_(&prometheus::BuildCounter()
                        .Name("nqueens_exact_nodes_total")
                        .Help("Nodes the exact search visited, over all calls.")
                        .Register(*registry_)
                        .Add({})),
      queue_wait_(&prometheus::BuildHistogram()
                       .Name("nqueens_queue_wait_seconds")
                       .Help("Time the calls that ran waited for a worker.")
                       .Register(*registry_)
                       .Add({}, QueueWaitBuckets())) {}

void CallMetrics::RecordCall(const Method& method, const CallRecord& call) {
  method.calls_by_code[static_cast<int>(call.status.code())]->Increment();
  method.seconds->Observe(absl::ToDoubleSeconds(call.duration));
  if (call.n != 0) method.board_rows->Observe(static_cast<double>(call.n));
  if (call.outcome != CallOutcome::kNone) {
    outcome_counters_[static_cast<int>(call.outcome)]->Increment();
  }
  if (call.exact_nodes != 0) exact_nodes_->Increment(static_cast<double>(call.exact_nodes));
}

std::shared_ptr<prometheus::Collectable> MakeServiceLoadGauges(std::function<ServiceLoad()> read) {
  return std::make_shared<ServiceLoadGauges>(std::move(read));
}

prometheus::MetricFamily OneSeries(std::string name, std::string help, prometheus::MetricType type,
                                   double value) {
  prometheus::ClientMetric metric;
  if (type == prometheus::MetricType::Counter) {
    metric.counter.value = value;
  } else {
    metric.gauge.value = value;
  }
  return prometheus::MetricFamily{std::move(name), std::move(help), type, {std::move(metric)}};
}

}  // namespace nqueens::server
