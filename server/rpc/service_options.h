// What an operator sets for the service (the server's flags), with defaults.
#ifndef NQUEENS_SERVER_RPC_SERVICE_OPTIONS_H_
#define NQUEENS_SERVER_RPC_SERVICE_OPTIONS_H_

#include <cstdint>

#include "absl/time/time.h"

namespace nqueens::server {

// The most a client may ask for; larger limits in a request are lowered to
// these, and the response says so (Stats.lowered_limits).
struct CallLimits {
  uint64_t max_backtracks = 1'000'000;    // --max-backtracks
  uint32_t max_restarts = 1'000;          // --max-restarts
  uint64_t max_exact_nodes = UINT64_MAX;  // --max-exact-nodes (0: no maximum)
  double max_exact_seconds = 600;         // --max-exact-seconds
  // Boards with more free rows than this are not searched exactly; above
  // 1,024 the search reserves its memory (d^2 / 4 bytes) when it starts.
  uint32_t max_exact_free_rows = 65'536;  // --max-exact-free-rows
  // From the call's arrival, queueing included (--max-call-seconds).
  absl::Duration max_call_time = absl::Seconds(120);
};

struct ServiceOptions {
  // Larger boards are refused with RESOURCE_EXHAUSTED before any allocation.
  uint64_t max_n = 100'000'000;
  // Bytes all calls share; each reserves its estimated peak before it
  // allocates anything O(n) and is refused (RESOURCE_EXHAUSTED) when that
  // does not fit. 0: DefaultMemoryBudget().
  uint64_t memory_budget = 0;
  // A stream on which no message moves for this long while the server waits
  // on the client is cut. absl::InfiniteDuration(): never.
  absl::Duration stream_idle_timeout = absl::Seconds(30);
  // Threads running calls (see limits/worker_pool.h). 0: the CPUs this process may
  // use (UsableCpus()).
  int workers = 0;
  // Calls that may wait for a worker; more get RESOURCE_EXHAUSTED.
  int max_queued = 1024;
  // Calls one client may have in flight (see limits/client_calls.h); more get
  // RESOURCE_EXHAUSTED. 0: no limit.
  int max_calls_per_client = 256;
  CallLimits limits;
  // Set by Server::Start for --health-listen: a call that arrived in
  // plaintext came through the health port (security/health_port.h).
  bool health_port = false;
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_RPC_SERVICE_OPTIONS_H_
