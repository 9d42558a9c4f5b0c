#include "client/parts/ordered_boards.h"

#include <utility>

namespace nqueens::client {

OrderedBoards::OrderedBoards(uint64_t part_count, uint64_t limit,
                             std::function<bool(const Columns&)> sink)
    : limit_(limit),
      sink_(std::move(sink)),
      taken_(part_count, 0),
      done_(part_count, false),
      waiting_(part_count) {}

bool OrderedBoards::Add(uint64_t part, uint64_t ordinal, const Columns& board) {
  absl::MutexLock lock(&mutex_);
  if (stopped_) return false;
  if (ordinal < taken_[part]) return true;  // an earlier try gave it
  ++taken_[part];
  if (part == next_) return Emit(board);
  waiting_[part].push_back(board);
  return true;
}

bool OrderedBoards::PartDone(uint64_t part) {
  absl::MutexLock lock(&mutex_);
  done_[part] = true;
  FlushDue();
  return stopped_ || next_ == done_.size();
}

uint64_t OrderedBoards::handed() const {
  absl::MutexLock lock(&mutex_);
  return handed_;
}

bool OrderedBoards::Emit(const Columns& board) {
  if (stopped_) return false;
  ++handed_;
  stopped_ = !sink_(board) || handed_ == limit_;
  return !stopped_;
}

void OrderedBoards::FlushDue() {
  while (next_ < done_.size()) {
    for (const Columns& board : waiting_[next_]) {
      if (!Emit(board)) break;
    }
    std::vector<Columns>().swap(waiting_[next_]);
    if (stopped_ || !done_[next_]) return;
    ++next_;
  }
}

}  // namespace nqueens::client
