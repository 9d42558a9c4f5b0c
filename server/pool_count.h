// Count's search spread over the worker pool: the call's own worker counts
// the plan's parts one after another, and helper jobs queued on the pool
// take parts too while workers are free. A helper that starts after the last
// part was taken ends at once, so helpers never hold a worker idle, and the
// call's worker never waits for a helper that has not started.
#ifndef NQUEENS_SERVER_POOL_COUNT_H_
#define NQUEENS_SERVER_POOL_COUNT_H_

#include <functional>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "nqueens/count.h"
#include "nqueens/stop.h"
#include "worker_pool.h"

namespace nqueens::server {

// Counts every part of `plan` on the calling thread and on up to
// pool.MaxPerCall() - 1 helper jobs, stopping at `stop`. `on_progress` runs on
// the calling thread every `progress_interval` while the count runs (to
// within 20 ms while that thread waits for helpers), whichever thread counts.
absl::StatusOr<CountResult> CountOnPool(
    WorkerPool& pool, CountPlan plan, const StopCondition& stop, absl::Duration progress_interval,
    const std::function<void(const CountProgress&)>& on_progress);

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_POOL_COUNT_H_
