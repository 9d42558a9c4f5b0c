// The threads one call may use. The exact search and counting cut their
// work into parts (subtrees), and the pipeline's block 1 its passes into
// chunk pairs, that the calling thread and helpers take in turn; the rest of
// a call runs on the calling thread.
#ifndef NQUEENS_THREADS_H_
#define NQUEENS_THREADS_H_

#include <functional>

namespace nqueens {

struct SearchThreads {
  // Threads in all, the calling one included; 1: the calling thread alone.
  int count = 1;
  // Runs a helper job on another thread, now or later, or returns false when
  // it cannot (a server hands jobs to its worker pool). Empty: the call
  // starts threads of its own and joins them before it returns.
  std::function<bool(std::function<void()>)> run;
};

}  // namespace nqueens

#endif  // NQUEENS_THREADS_H_
