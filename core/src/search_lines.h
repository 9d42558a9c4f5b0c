// The unplaced rows and columns of the exact search and their open-cell
// counts, shared by the engines that keep one mutable board and undo their
// placements (the trail engine and the large engine).
#ifndef NQUEENS_SRC_SEARCH_LINES_H_
#define NQUEENS_SRC_SEARCH_LINES_H_

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "rng.h"

namespace nqueens::internal {

// The set {0, ..., size-1} minus what was removed, where removals are undone
// in reverse order; each operation O(1), listing O(members) (a sparse set).
class UndoableSet {
 public:
  explicit UndoableSet(uint32_t size) : members_(size), position_(size), count_(size) {
    std::iota(members_.begin(), members_.end(), 0u);
    std::iota(position_.begin(), position_.end(), 0u);
  }

  bool empty() const { return count_ == 0; }
  // x must be a member.
  void Remove(uint32_t x) {
    const uint32_t last = members_[--count_];
    std::swap(members_[position_[x]], members_[count_]);
    std::swap(position_[x], position_[last]);
  }
  // Puts back the member removed last (it still sits right past the end).
  void RestoreLast() { ++count_; }

  const uint32_t* begin() const { return members_.data(); }
  const uint32_t* end() const { return members_.data() + count_; }

 private:
  std::vector<uint32_t> members_;   // the members first, then the removed, latest first
  std::vector<uint32_t> position_;  // of each value in members_
  uint32_t count_;
};

// The open cells of each row (or each column) of the free board, with a
// random rank to break ties, packed as open << 32 | rank: the line to branch
// on is then one min over keys, which compiles without branches.
class LineKeys {
 public:
  // No open cells; the ranks are a random permutation drawn from `rng`.
  LineKeys(uint32_t size, Rng& rng) : keys_(size), line_of_rank_(size) {
    std::vector<uint32_t> ranks(size);
    std::iota(ranks.begin(), ranks.end(), 0u);
    rng.Shuffle(ranks.begin(), ranks.end());
    for (uint32_t x = 0; x < size; ++x) {
      keys_[x] = ranks[x];
      line_of_rank_[ranks[x]] = x;
    }
  }

  uint32_t open(uint32_t x) const { return static_cast<uint32_t>(keys_[x] >> 32); }
  uint32_t rank(uint32_t x) const { return static_cast<uint32_t>(keys_[x]); }
  void Add(uint32_t x, uint32_t cells) { keys_[x] += uint64_t{cells} << 32; }
  void Subtract(uint32_t x, uint32_t cells) { keys_[x] -= uint64_t{cells} << 32; }

  // The member of `lines` with the fewest open cells, ties to the lowest rank.
  uint32_t Fewest(const UndoableSet& lines) const {
    uint64_t best = ~uint64_t{0};
    for (uint32_t x : lines) best = std::min(best, keys_[x]);
    return line_of_rank_[static_cast<uint32_t>(best)];
  }

 private:
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> line_of_rank_;
};

}  // namespace nqueens::internal

#endif  // NQUEENS_SRC_SEARCH_LINES_H_
