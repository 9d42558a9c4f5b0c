#include "server/rpc/service_state.h"

#include <google/protobuf/descriptor.h>

#include <string>
#include <vector>

#include "absl/time/time.h"
#include "command_line/cpu_count.h"
#include "nqueens/v1/nqueens.grpc.pb.h"
#include "server/limits/memory_estimate.h"

namespace nqueens::server {
namespace {

// Long enough that a client's next call usually comes first, short enough
// that a load test sees the memory come back.
constexpr absl::Duration kIdleTrimDelay = absl::Milliseconds(100);

int EffectiveWorkers(int requested) {
  return requested > 0 ? requested : command_line::UsableCpus();
}

// The names of the service's methods, as the calls give them.
std::vector<std::string> ServiceMethods() {
  const google::protobuf::ServiceDescriptor* service =
      google::protobuf::DescriptorPool::generated_pool()->FindServiceByName(
          v1::NQueensService::service_full_name());
  std::vector<std::string> names;
  names.reserve(service->method_count());
  for (int i = 0; i < service->method_count(); ++i) names.push_back(service->method(i)->name());
  return names;
}

}  // namespace

ServiceState::ServiceState(const ServiceOptions& service_options, BearerTokens* bearer_tokens)
    : options(service_options),
      tokens(bearer_tokens),
      client_calls(options.max_calls_per_client),
      memory_budget(options.memory_budget != 0 ? options.memory_budget : DefaultMemoryBudget()),
      pool(EffectiveWorkers(options.workers), options.max_queued),
      idle_watchdog(options.stream_idle_timeout),
      idle_heap_trim(kIdleTrimDelay),
      metrics(ServiceMethods()),
      // The express lane runs calls too (limits/worker_pool.h).
      worker_bytes(kFixedCallBytes * (pool.workers() + 1)),
      worker_memory(memory_budget.Reserve(worker_bytes)) {}

}  // namespace nqueens::server
