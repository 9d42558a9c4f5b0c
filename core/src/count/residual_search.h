// The depth-first search over a residual board's levels (residual.h), with
// an explicit stack so that it can pause and resume: counting takes it to
// the end, enumerating a batch of leaves at a time.
#ifndef NQUEENS_COUNT_RESIDUAL_SEARCH_H_
#define NQUEENS_COUNT_RESIDUAL_SEARCH_H_

#include <array>
#include <cstddef>
#include <cstdint>

#include "absl/numeric/bits.h"
#include "base/stop_poller.h"
#include "count/residual.h"
#include "nqueens/board.h"

namespace nqueens::internal {

// The depth-first search over the levels below a fixed prefix of
// placements, one bit (column) per level, lowest column first.
template <typename G>
class Dfs {
 public:
  enum class Run { kDone, kPaused, kStopped };

  // `prefix`: a bit for each of the first levels, each open where placed
  // (so shorter than the levels). An empty residual (no free rows) has the
  // one leaf of no placements.
  Dfs(const G& geometry, size_t levels, absl::Span<const uint64_t> prefix)
      : geometry_(&geometry), levels_(levels), base_(prefix.size()), level_(base_) {
    if (levels_ == 0) return;
    typename G::Frame frame = geometry.Root();
    for (size_t level = 0; level < base_; ++level) {
      placed_[level] = prefix[level];
      frame = geometry.Child(frame, level, prefix[level]);
    }
    stack_[base_] = {frame, geometry.Open(frame, base_, placed_.data())};
  }

  // Searches on, calling on_leaf(placed) at each full placement (placed[l]
  // is the bit of level l) until it returns false (kPaused; the next Search
  // goes on after that leaf) or the search is done. With kCountLast the
  // last level is not entered: count_last(open bits there) is called instead,
  // and on_leaf only when the prefix already reaches the last level.
  // kStopped, resumable, once `stop` fires.
  template <bool kCountLast = false, typename OnLeaf, typename CountLast>
  Run Search(OnLeaf&& on_leaf, CountLast&& count_last, StopPoller& stop) {
    if (levels_ == 0) {
      if (level_ == 0) {
        level_ = 1;
        on_leaf(placed_.data());
      }
      return Run::kDone;
    }
    const G& geometry = *geometry_;
    const size_t last = levels_ - 1;
    for (;;) {
      Entry& entry = stack_[level_];
      if (entry.open == 0) {
        if (level_ == base_) return Run::kDone;
        --level_;
        continue;
      }
      if ((++nodes_ & (StopPoller::kStride - 1)) == 0 && stop.CheckNow()) {
        --nodes_;  // the node is visited when resumed
        return Run::kStopped;
      }
      const uint64_t bit = entry.open & (~entry.open + 1);
      entry.open ^= bit;
      placed_[level_] = bit;
      if (level_ == last) {
        if (!on_leaf(placed_.data())) return Run::kPaused;
        continue;
      }
      const typename G::Frame child = geometry.Child(entry.frame, level_, bit);
      const uint64_t open = geometry.Open(child, level_ + 1, placed_.data());
      if (kCountLast && level_ + 1 == last) {
        count_last(open);
      } else if (open != 0) {
        ++level_;
        stack_[level_] = {child, open};
      }
    }
  }

  uint64_t nodes() const { return nodes_; }
  const G& geometry() const { return *geometry_; }

 private:
  struct Entry {
    typename G::Frame frame;
    uint64_t open = 0;
  };
  const G* geometry_;
  size_t levels_;
  size_t base_;
  size_t level_;
  uint64_t nodes_ = 0;
  std::array<Entry, 64> stack_{};
  std::array<uint64_t, 64> placed_{};
};

// The full board of a leaf: the composition with each level's column.
template <typename G>
void FillBoard(const G& geometry, const Residual& residual, const uint64_t* placed,
               Columns& board) {
  board = residual.composition;
  for (size_t level = 0; level < residual.rows.size(); ++level) {
    board[residual.rows[level]] = static_cast<uint32_t>(geometry.Column(level, placed[level]) + 1);
  }
}

}  // namespace nqueens::internal

#endif  // NQUEENS_COUNT_RESIDUAL_SEARCH_H_
