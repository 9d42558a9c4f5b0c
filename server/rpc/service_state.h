// What all calls of one service share: its options, admission (calls in
// flight, per client), the memory budget, the worker pool, the idle watch of
// streams, the heap trim, and what calls are counted in.
#ifndef NQUEENS_SERVER_RPC_SERVICE_STATE_H_
#define NQUEENS_SERVER_RPC_SERVICE_STATE_H_

#include <cstdint>
#include <optional>

#include "server/base/idle_heap_trim.h"
#include "server/limits/client_calls.h"
#include "server/limits/idle_watchdog.h"
#include "server/limits/in_flight_calls.h"
#include "server/limits/memory_budget.h"
#include "server/limits/worker_pool.h"
#include "server/observability/call_counters.h"
#include "server/observability/metrics.h"
#include "server/rpc/service_options.h"
#include "server/security/auth.h"

namespace nqueens::server {

// What all calls of one service share.
struct ServiceState {
  // `tokens`: those calls must carry (see security/auth.h); null: none needed.
  ServiceState(const ServiceOptions& options, BearerTokens* tokens);

  // What the budget leaves for calls once the workers' fixed part is held.
  uint64_t CallCapacity() const { return memory_budget.capacity() - worker_bytes; }

  const ServiceOptions options;
  BearerTokens* const tokens;
  InFlightCalls in_flight;
  ClientCalls client_calls;
  MemoryBudget memory_budget;
  WorkerPool pool;
  IdleWatchdog idle_watchdog;
  IdleHeapTrim idle_heap_trim;
  CallCounters counters;
  CallMetrics metrics;
  // The fixed part of a running call, once per thread that runs calls (see
  // limits/memory_estimate.h); unset when the budget cannot hold it, which
  // Server::Start refuses.
  const uint64_t worker_bytes;
  std::optional<MemoryBudget::Reservation> worker_memory;
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_RPC_SERVICE_STATE_H_
