#include "server/base/pages_ahead.h"

#include <sys/mman.h>

#include <algorithm>

namespace nqueens::server {
namespace {

// A transparent huge page: the unit of the steps, as the board is advised to
// use them (nqueens/board.h).
constexpr uintptr_t kStep = uintptr_t{2} << 20;

uintptr_t RoundDown(uintptr_t address) { return address & ~(kStep - 1); }
uintptr_t RoundUp(uintptr_t address) { return RoundDown(address + kStep - 1); }

}  // namespace

PagesAhead::PagesAhead(const void* memory, uint64_t bytes, uint64_t window)
    : memory_(reinterpret_cast<uintptr_t>(memory)),
      begin_(RoundUp(memory_)),
      end_(std::max(begin_, RoundDown(memory_ + bytes))),
      window_(window),
      thread_([this] { Run(); }) {}

PagesAhead::~PagesAhead() {
  {
    absl::MutexLock lock(&mutex_);
    stopping_ = true;
  }
  thread_.join();
}

void PagesAhead::Reached(uint64_t bytes) {
  absl::MutexLock lock(&mutex_);
  reached_ = std::max(reached_, bytes);
}

void PagesAhead::Run() {
  // One page a step, each after a look at the room and at a stop, so that a
  // stop waits for one page at most.
  for (uintptr_t done = begin_; done < end_ && WaitForRoom(done) > done; done += kStep) {
    // Fails where the kernel lacks MADV_POPULATE_WRITE, or when there is no
    // memory: the reader then faults the pages in itself, as it would.
    if (madvise(reinterpret_cast<void*>(done), kStep, MADV_POPULATE_WRITE) != 0) return;
    populated_.store(done + kStep - memory_, std::memory_order_release);
  }
}

uintptr_t PagesAhead::WaitForRoom(uintptr_t done) {
  const auto room = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return std::min(end_, RoundDown(memory_ + reached_ + window_));
  };
  const auto room_or_stopping = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return stopping_ || room() > done;
  };
  absl::MutexLock lock(&mutex_);
  mutex_.Await(absl::Condition(&room_or_stopping));
  return stopping_ ? done : room();
}

}  // namespace nqueens::server
