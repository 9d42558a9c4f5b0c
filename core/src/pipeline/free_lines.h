// Block 1's view of the free rows or the free columns: cut, pass after pass,
// into chunks of near-equal count, each a range of lines, so that one chunk
// of rows meets one chunk of columns (random_pairing.cc).
//
// No list is kept while many lines are free: a chunk's lines are read from
// the board's bits (BoardState::row_used, column_used), which the pairing
// keeps up to date, so a pass needs O(chunks) memory beyond the board and
// its first passes at n = 10^9 do not write 8 GB of lists. Reading the bits
// costs O(n / 64) a pass, more than the pass itself once few lines are free;
// from then on (fewer than n / kListBelow) the lines are a sorted list,
// which each cut shortens to the lines still free.
#ifndef NQUEENS_PIPELINE_FREE_LINES_H_
#define NQUEENS_PIPELINE_FREE_LINES_H_

#include <cstddef>
#include <cstdint>

#include "base/bit_array.h"
#include "base/huge_pages.h"
#include "base/stop_poller.h"

namespace nqueens::internal {

class FreeLines {
 public:
  // Below n / kListBelow free lines, reading the bits costs more than the
  // pass that uses them (docs/constants.md, FreeLines).
  static constexpr size_t kListBelow = 32;

  // Lines 1..n whose bit in `used` is clear are free. `used` must outlive
  // this and change only through the pairing between cuts.
  FreeLines(const BitArray& used, uint32_t n) : used_(used), n_(n) {}

  // Cuts the `free` free lines into `chunks` (at least 1) chunks of near-equal
  // count, in ascending order. O(n / 64) while the lines are read from the
  // bits, O(free) once they are a list. False once `stop` fires, leaving
  // this unusable.
  bool Cut(size_t free, size_t chunks, StopPoller& stop);

  // How many free lines chunk `chunk` of the last cut holds, and the most
  // any chunk holds.
  size_t Count(size_t chunk) const {
    return (chunk + 1) * free_ / chunks_ - chunk * free_ / chunks_;
  }
  size_t LargestChunk() const { return (free_ + chunks_ - 1) / chunks_; }
  // Calls visit(line) for the free lines of `chunk`, ascending. Reads only
  // the bits of the chunk's lines.
  template <typename Visit>
  void ForEach(size_t chunk, Visit visit) const {
    if (listed_) {
      for (uint32_t i = bounds_[chunk]; i < bounds_[chunk + 1]; ++i) visit(list_[i]);
      return;
    }
    const size_t first = bounds_[chunk], last = bounds_[chunk + 1];
    for (size_t word = first >> 6; word << 6 < last; ++word) {
      for (uint64_t clear = used_.ClearIn(word, first, last); clear != 0; clear &= clear - 1) {
        visit(static_cast<uint32_t>((word << 6) + __builtin_ctzll(clear)));
      }
    }
  }
  // Asks the memory system for what ForEach(chunk) reads.
  void Prefetch(size_t chunk) const;
  // Every line of `chunk` lies in [First(chunk), Last(chunk)].
  uint32_t First(size_t chunk) const;
  uint32_t Last(size_t chunk) const;

 private:
  bool CutBits(size_t free, StopPoller& stop);
  bool CutList(StopPoller& stop);
  // Lists the free lines, or drops the lines no longer free from the list.
  bool UpdateList(size_t free, StopPoller& stop);

  const BitArray& used_;
  const uint32_t n_;
  size_t free_ = 0;
  size_t chunks_ = 1;
  bool listed_ = false;
  // Bits: chunk i holds the free lines in [bounds_[i], bounds_[i + 1]).
  // List: chunk i is list_[bounds_[i] .. bounds_[i + 1]).
  HugeVector<uint32_t> bounds_;
  HugeVector<uint32_t> list_;
};

}  // namespace nqueens::internal

#endif  // NQUEENS_PIPELINE_FREE_LINES_H_
