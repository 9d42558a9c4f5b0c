#include "server/observability/metrics.h"

#include <prometheus/client_metric.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/metric_type.h>

#include <utility>

#include "absl/strings/str_split.h"
#include "command_line/command_line.h"

namespace nqueens::server {
namespace {

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

absl::flat_hash_map<std::string, CallMetrics::Method> MethodSeriesByName(
    const std::vector<std::string>& methods, prometheus::Registry& registry) {
  auto& board_rows = prometheus::BuildHistogram()
                         .Name("nqueens_board_rows")
                         .Help("Board size n of the calls whose request gave one.")
                         .Register(registry);
  absl::flat_hash_map<std::string, CallMetrics::Method> series;
  for (const std::string& name : methods) {
    series.emplace(name,
                   CallMetrics::Method{&board_rows.Add({{"method", name}}, BoardRowsBuckets())});
  }
  return series;
}

bool IsValidation(CallOutcome outcome) {
  return outcome == CallOutcome::kComplete || outcome == CallOutcome::kValid ||
         outcome == CallOutcome::kInvalid;
}

// By CallOutcome; none for kNone. Completions' outcomes and validations'
// verdicts apart: neither is a share of the other's calls.
std::array<prometheus::Counter*, kCallOutcomeCount> OutcomeCounters(
    prometheus::Registry& registry) {
  auto& completions = prometheus::BuildCounter()
                          .Name("nqueens_completion_outcomes_total")
                          .Help(
                              "What completions (Solve, Complete and their streams) concluded: "
                              "SOLVED, UNSOLVABLE or UNDECIDED.")
                          .Register(registry);
  auto& validations = prometheus::BuildCounter()
                          .Name("nqueens_validation_outcomes_total")
                          .Help(
                              "What validations (Validate, ValidateStream) found: complete, valid "
                              "or invalid.")
                          .Register(registry);
  std::array<prometheus::Counter*, kCallOutcomeCount> counters{};
  for (int outcome = 0; outcome < kCallOutcomeCount; ++outcome) {
    const CallOutcome known = static_cast<CallOutcome>(outcome);
    if (known != CallOutcome::kNone) {
      counters[outcome] = &(IsValidation(known) ? validations : completions)
                               .Add({{"outcome", CallOutcomeName(known)}});
    }
  }
  return counters;
}

// nqueens_build_info{version,revision} 1.
void AddBuildInfo(const BuildInfo& build, prometheus::Registry& registry) {
  prometheus::BuildGauge()
      .Name("nqueens_build_info")
      .Help("Always 1: the version and git revision of this server's build.")
      .Register(registry)
      .Add({{"version", build.version}, {"revision", build.revision}})
      .Set(1);
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

prometheus::Histogram::BucketBoundaries CallSecondsBuckets() {
  return {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120};
}

BuildInfo ParseVersionLine(absl::string_view line) {
  BuildInfo build{"unknown", "unknown"};
  const std::vector<absl::string_view> words = absl::StrSplit(line, ' ', absl::SkipEmpty());
  if (words.size() >= 2) build.version = std::string(words[1]);
  const size_t git = line.find("(git ");
  if (git != absl::string_view::npos) {
    const absl::string_view rest = line.substr(git + 5);
    const absl::string_view revision = rest.substr(0, rest.find_first_of(",)"));
    if (!revision.empty()) build.revision = std::string(revision);
  }
  return build;
}

CallMetrics::CallMetrics(const std::vector<std::string>& methods, const std::string& service)
    : registry_(std::make_shared<prometheus::Registry>()),
      methods_(MethodSeriesByName(methods, *registry_)),
      grpc_(*registry_, {service, "grpc.health.v1.Health"}),
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
                       .Add({}, QueueWaitBuckets())),
      http_refusals_(prometheus::BuildCounter()
                         .Name("nqueens_http_refusals_total")
                         .Help("HTTP requests refused before any call, by HTTP status.")
                         .Register(*registry_)) {
  AddBuildInfo(ParseVersionLine(command_line::VersionLine("nqueens-server")), *registry_);
}

void CallMetrics::RecordCall(const Method& method, const CallRecord& call) {
  if (call.n != 0) method.board_rows->Observe(static_cast<double>(call.n));
  if (call.outcome != CallOutcome::kNone) {
    outcome_counters_[static_cast<int>(call.outcome)]->Increment();
  }
  if (call.exact_nodes != 0) exact_nodes_->Increment(static_cast<double>(call.exact_nodes));
}

void CallMetrics::CountHttpRefusal(int http_status) {
  // Rare, so the series is found (or made) here, under prometheus-cpp's lock.
  http_refusals_.Add({{"code", std::to_string(http_status)}}).Increment();
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
