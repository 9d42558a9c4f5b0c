// Block 1's view of the free rows or the free columns: cut, pass after pass,
// into chunks of near-equal count, each a range of lines, so that one chunk
// of rows meets one chunk of columns (random_pairing.cc).
//
// No list is kept while many lines are free: a chunk's lines are read from
// the board's bits (BoardState::row_used, column_used), which the pairing
// keeps up to date, so a pass needs O(chunks) memory beyond the board and
// its first passes at n = 10^9 do not write 8 GB of lists. Reading the bits
// costs O(n / 64) a pass, more than the pass itself once few lines are free;
// from then on (fewer than n / kListBelow), and from the start when a pass
// has one chunk (boards below pairing_chunks_from_n), the lines are a list,
// ascending chunk by chunk, which each cut shortens to the lines still free,
// keeping the order a pass gave each chunk.
#ifndef NQUEENS_PIPELINE_FREE_LINES_H_
#define NQUEENS_PIPELINE_FREE_LINES_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "base/bit_array.h"
#include "base/huge_pages.h"
#include "base/rng.h"
#include "base/stop_poller.h"

namespace nqueens::internal {

class FreeLines {
 public:
  // Below n / kListBelow free lines, reading the bits costs more than the
  // pass that uses them (docs/constants.md, FreeLines).
  static constexpr size_t kListBelow = 32;

  // What the pairing writes over a line that Shuffled() handed out and that
  // got a queen: the next cut drops it from the list without reading its
  // bit, which lies at a random place in the chunk's span.
  static constexpr uint32_t kTaken = 0;

  // Lines 1..n whose bit in `used` is clear are free. `used` must outlive
  // this and change only through the pairing between cuts.
  FreeLines(const BitArray& used, uint32_t n) : used_(used), n_(n) {}

  // Cuts the `free` free lines into `chunks` (at least 1) chunks of near-equal
  // count, in ascending order. O(n / 64) while the lines are read from the
  // bits, O(free) once they are a list. False once `stop` fires, leaving
  // this unusable.
  bool Cut(size_t free, size_t chunks, StopPoller& stop);

  // How many chunks the last cut made.
  size_t Chunks() const { return chunks_; }
  // How many free lines chunk `chunk` of the last cut holds.
  size_t Count(size_t chunk) const {
    return (chunk + 1) * free_ / chunks_ - chunk * free_ / chunks_;
  }
  // The free lines of `chunk` in a uniformly random order drawn from `rng`.
  // Listed lines are shuffled where they lie, unless `keep_order` and a whole
  // pass already shuffled them (MarkRandomOrder); the caller may reorder them
  // there, and must write kTaken over those it places. Lines not yet listed
  // are read from the bits into `buffer` and shuffled as they are read: one
  // pass over them, not two. nullopt once should_stop(), asked every few
  // thousand swaps, says so.
  template <typename ShouldStop>
  std::optional<absl::Span<uint32_t>> Shuffled(size_t chunk, bool keep_order, Rng& rng,
                                               std::vector<uint32_t>& buffer,
                                               ShouldStop&& should_stop) {
    if (!listed_) return ReadShuffled(chunk, rng, buffer);
    const absl::Span<uint32_t> lines(list_.data() + bounds_[chunk], Count(chunk));
    if ((keep_order && random_order_) || rng.Shuffle(lines.begin(), lines.end(), should_stop)) {
      return lines;
    }
    return std::nullopt;
  }
  // Says that a whole pass shuffled the listed lines where they lie: their
  // order is random from then on.
  void MarkRandomOrder() { random_order_ = listed_; }
  // Asks the memory system for what Shuffled(chunk) reads.
  void Prefetch(size_t chunk) const;
  // Every line of `chunk` lies in [First(chunk), Last(chunk)].
  uint32_t First(size_t chunk) const { return listed_ ? first_[chunk] : bounds_[chunk]; }
  uint32_t Last(size_t chunk) const { return listed_ ? last_[chunk] : bounds_[chunk + 1] - 1; }

 private:
  absl::Span<uint32_t> ReadShuffled(size_t chunk, Rng& rng, std::vector<uint32_t>& buffer) const;
  bool CutBits(size_t free, StopPoller& stop);
  bool CutList(StopPoller& stop);
  // Lists the free lines, or drops the lines no longer free from the list.
  bool UpdateList(size_t free, StopPoller& stop);

  const BitArray& used_;
  const uint32_t n_;
  size_t free_ = 0;
  size_t chunks_ = 1;
  bool listed_ = false;
  bool random_order_ = false;
  // Bits: chunk i holds the free lines in [bounds_[i], bounds_[i + 1]).
  // List: chunk i is list_[bounds_[i] .. bounds_[i + 1]).
  HugeVector<uint32_t> bounds_;
  HugeVector<uint32_t> list_;
  // List: chunk i's lines lie in [first_[i], last_[i]]. The list ascends
  // chunk by chunk, but not inside a chunk once a pass shuffled it.
  HugeVector<uint32_t> first_, last_;
};

}  // namespace nqueens::internal

#endif  // NQUEENS_PIPELINE_FREE_LINES_H_
