// Lets several threads pair the chunk pairs of one block-1 pass and still
// leave the board that one thread pairing them in order would: pair j starts
// only once every earlier pair still under way whose lines share a 64-bit
// word of a control array with its own (rows, columns, diagonals,
// anti-diagonals) is done. Two pairs of one pass rarely come that close (a
// chunk pair's diagonals span a few KiB of bits out of n / 4 bytes), so the
// threads seldom wait; and since no two threads ever write one word at once,
// the bits need no atomic operations.
#ifndef NQUEENS_PIPELINE_CHUNK_PAIR_ORDER_H_
#define NQUEENS_PIPELINE_CHUNK_PAIR_ORDER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace nqueens::internal {

// The words of the four control arrays a chunk pair may write: for each,
// the first and the last word index.
struct ChunkPairWords {
  std::array<uint64_t, 4> first, last;

  // Whether the two share a word of some array.
  bool Overlaps(const ChunkPairWords& other) const {
    for (size_t i = 0; i < first.size(); ++i) {
      if (first[i] <= other.last[i] && other.first[i] <= last[i]) return true;
    }
    return false;
  }
};

// The words the pairs of rows in [first_row, last_row] with columns in
// [first_column, last_column] of an n x n board write (index r = n + column -
// row for the diagonals, t = row + column for the anti-diagonals).
ChunkPairWords WordsOf(uint32_t n, uint32_t first_row, uint32_t last_row, uint32_t first_column,
                       uint32_t last_column);

class ChunkPairOrder {
 public:
  // Pairs begin .. end - 1; words(j) says what pair j writes.
  ChunkPairOrder(size_t begin, size_t end, std::function<ChunkPairWords(size_t)> words)
      : next_(begin), end_(end), words_(std::move(words)) {}

  // The next pair to do, once no earlier pair in its way is under way;
  // nullopt when every pair has been taken.
  std::optional<size_t> Take();
  // Says that pair `pair`, from Take, is done.
  void Done(size_t pair);

 private:
  struct Running {
    size_t pair;
    ChunkPairWords words;
  };

  absl::Mutex mutex_;
  size_t next_ ABSL_GUARDED_BY(mutex_);
  const size_t end_;
  const std::function<ChunkPairWords(size_t)> words_;
  std::vector<Running> running_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace nqueens::internal

#endif  // NQUEENS_PIPELINE_CHUNK_PAIR_ORDER_H_
