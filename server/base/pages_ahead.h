// Faults in the pages of a board being received ahead of the rows, on a
// thread of its own. A stream's board is fresh memory, and on the virtual
// machines we measure on, touching fresh memory costs more than decoding the
// rows into it (docs/constants.md, PagesAhead): done by the thread that
// reads the stream, it holds up the upload; done here, on another core, it
// overlaps it. Never more than `window` bytes past the rows
// received are touched, so that a client that stops sending holds no more
// than that (the call reserves it). Where the kernel cannot populate pages
// ahead (before Linux 5.14), nothing is done and the reader faults them in
// as before.
#ifndef NQUEENS_SERVER_BASE_PAGES_AHEAD_H_
#define NQUEENS_SERVER_BASE_PAGES_AHEAD_H_

#include <atomic>
#include <cstdint>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace nqueens::server {

class PagesAhead {
 public:
  // [memory, memory + bytes): address space reserved for the board, its
  // pages untouched; it must outlive this.
  PagesAhead(const void* memory, uint64_t bytes, uint64_t window);
  // Stops at once (after the step under way) and joins.
  ~PagesAhead();

  PagesAhead(const PagesAhead&) = delete;
  PagesAhead& operator=(const PagesAhead&) = delete;

  // The rows have been written up to `bytes` from the start.
  void Reached(uint64_t bytes);

  // The bytes from the start of the memory whose pages this has put in (for
  // tests).
  uint64_t populated() const { return populated_.load(std::memory_order_acquire); }

 private:
  void Run();
  // Waits until the pages may go past `done` (an address), and returns how
  // far they may go; `done` once stopping.
  uintptr_t WaitForRoom(uintptr_t done);

  // The memory's whole huge pages, [begin_, end_): steps are 2 MiB pages.
  uintptr_t const memory_;
  uintptr_t const begin_;
  uintptr_t const end_;
  uint64_t const window_;
  std::atomic<uint64_t> populated_{0};
  absl::Mutex mutex_;
  uint64_t reached_ ABSL_GUARDED_BY(mutex_) = 0;
  bool stopping_ ABSL_GUARDED_BY(mutex_) = false;
  std::thread thread_;
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_BASE_PAGES_AHEAD_H_
