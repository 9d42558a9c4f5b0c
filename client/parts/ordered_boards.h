// enumerate --parts: the boards of parts that run at once, in any order and
// retried when a server fails, handed on in part order (part 0's, then part
// 1's, ...) as the output promises. The part next in order goes straight
// through; later parts wait in memory until their turn.
#ifndef NQUEENS_CLIENT_PARTS_ORDERED_BOARDS_H_
#define NQUEENS_CLIENT_PARTS_ORDERED_BOARDS_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "nqueens/board.h"

namespace nqueens::client {

class OrderedBoards {
 public:
  // Hands boards to `sink` in part order, at most `limit` (0: no limit),
  // until it returns false.
  OrderedBoards(uint64_t part_count, uint64_t limit, std::function<bool(const Columns&)> sink);

  // The `ordinal`-th board (0, 1, ...) of a try of `part`. A try repeats
  // what an earlier failed try gave, which is dropped. False once no more
  // boards are wanted. Any thread.
  bool Add(uint64_t part, uint64_t ordinal, const Columns& board);
  // `part` gave its last board; hands on what is now due. True once no more
  // boards are wanted (the limit is reached, the sink refused, or every part
  // is done).
  bool PartDone(uint64_t part);
  // Boards handed to the sink.
  uint64_t handed() const;

 private:
  // Hands on one board; false once no more are wanted.
  bool Emit(const Columns& board) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Hands on the waiting boards of the parts now due.
  void FlushDue() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  const uint64_t limit_;
  const std::function<bool(const Columns&)> sink_;
  mutable absl::Mutex mutex_;
  uint64_t next_ ABSL_GUARDED_BY(mutex_) = 0;  // the part whose boards go straight through
  uint64_t handed_ ABSL_GUARDED_BY(mutex_) = 0;
  bool stopped_ ABSL_GUARDED_BY(mutex_) = false;
  std::vector<uint64_t> taken_ ABSL_GUARDED_BY(mutex_);                // boards taken, by part
  std::vector<bool> done_ ABSL_GUARDED_BY(mutex_);                     // by part
  std::vector<std::vector<Columns>> waiting_ ABSL_GUARDED_BY(mutex_);  // by part
};

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_PARTS_ORDERED_BOARDS_H_
