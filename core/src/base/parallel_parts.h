// The one executor for work cut into parts (the exact search's subtrees, the
// count's parts): the calling thread and up to threads.count - 1 helpers take
// the parts in order, each part once, until every part is done or the work
// is abandoned. Helpers run through threads.run (a server's worker pool) or
// on threads of the executor's own, joined before it returns.
#ifndef NQUEENS_BASE_PARALLEL_PARTS_H_
#define NQUEENS_BASE_PARALLEL_PARTS_H_

#include <atomic>
#include <cstddef>
#include <functional>

#include "nqueens/threads.h"

namespace nqueens::internal {

// Does part `index` on one thread; false abandons the parts not taken yet.
using PartRunner = std::function<bool(size_t index)>;

struct PartsJob {
  size_t parts = 0;
  // Called once by each thread that takes parts, before its first part
  // (`on_caller`: by the calling thread): that thread's runner.
  std::function<PartRunner(bool on_caller)> start_thread;
  // Called on the calling thread between its parts and about every 20 ms
  // while it waits for helpers; false abandons the work. Optional.
  std::function<bool()> keep_going;
};

// Runs `job` and returns once no thread runs one of its parts. Sets
// `abandoned` when a runner or keep_going abandons the job: parts under way
// should watch it. Helpers that start after the return do nothing, so `job`
// may refer to the caller's state, `abandoned` included.
void RunParts(const PartsJob& job, const SearchThreads& threads, std::atomic<bool>& abandoned);

}  // namespace nqueens::internal

#endif  // NQUEENS_BASE_PARALLEL_PARTS_H_
