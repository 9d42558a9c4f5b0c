// The residual board of a composition, shared by counting and enumerating:
// its free rows ("levels", top to bottom) and free columns, which the given
// queens' diagonals leave open in each free row, and a depth-first search
// over the levels with an explicit stack, so that it can pause and resume.
//
// Two geometries carry the search from one level to the next:
// - ShiftGeometry (n <= 64): masks over the board's columns; a queen's
//   diagonals move one column per row, so between free rows `gap` apart the
//   left and right masks shift by `gap` (the classic left/down/right masks,
//   generalised to rows that are not consecutive).
// - TableGeometry (n > 64, at most 64 free rows): masks over the free
//   columns' indices, where diagonals are not shifts; each level's open
//   columns are recomputed from the queens placed above it through a table
//   of which free column a queen attacks in which later free row.
#ifndef NQUEENS_COUNT_RESIDUAL_H_
#define NQUEENS_COUNT_RESIDUAL_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <variant>
#include <vector>

#include "absl/numeric/bits.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/stop_poller.h"
#include "nqueens/board.h"

namespace nqueens::internal {

struct Residual {
  Columns composition;
  std::vector<uint64_t> rows;     // free rows, 0-based, ascending
  std::vector<uint64_t> columns;  // free columns, 0-based, ascending
};

// Validates `composition` (INVALID_ARGUMENT for a malformed board, attacking
// queens, or more than kCountMaxFreeRows free rows) and builds its residual.
absl::StatusOr<Residual> MakeResidual(Columns composition);
// The residual of a composition known to be valid, with at most
// kCountMaxFreeRows free rows.
Residual ResidualOf(Columns composition);

class ShiftGeometry {
 public:
  struct Frame {
    uint64_t left = 0, down = 0, right = 0;
  };
  explicit ShiftGeometry(const Residual& residual);

  Frame Root() const { return {}; }
  uint64_t Open(const Frame& frame, size_t level, const uint64_t* /*placed*/) const {
    return ~(frame.left | frame.down | frame.right | blocked_[level]);
  }
  Frame Child(const Frame& frame, size_t level, uint64_t bit) const {
    const uint32_t gap = gap_[level];
    return {(frame.left | bit) << gap, frame.down | bit, (frame.right | bit) >> gap};
  }
  uint64_t blocked(size_t level) const { return blocked_[level]; }
  uint32_t gap(size_t level) const { return gap_[level]; }
  // The 0-based board column of a placed bit.
  uint64_t Column(size_t /*level*/, uint64_t bit) const { return absl::countr_zero(bit); }

 private:
  std::vector<uint64_t> blocked_;  // per level: the columns closed by the given queens
  std::vector<uint32_t> gap_;      // per level: rows down to the next level
};

class TableGeometry {
 public:
  struct Frame {
    uint64_t down = 0;  // free column indices taken
  };
  explicit TableGeometry(const Residual& residual);

  Frame Root() const { return {}; }
  uint64_t Open(const Frame& frame, size_t level, const uint64_t* placed) const;
  Frame Child(const Frame& frame, size_t /*level*/, uint64_t bit) const {
    return {frame.down | bit};
  }
  uint64_t Column(size_t /*level*/, uint64_t bit) const { return columns_[absl::countr_zero(bit)]; }

 private:
  size_t levels_;
  // Per level: bit a set when free column `columns_[a]` is on no given
  // queen's diagonal there.
  std::vector<uint64_t> open_;
  std::vector<uint64_t> columns_;
  // attacks_[(above * levels_ + level) * levels_ + a]: the free column
  // indices (64: none) on the diagonals, in `level`, of a queen on free
  // column a in the level `above`.
  std::vector<std::array<uint8_t, 2>> attacks_;
};

using Geometry = std::variant<ShiftGeometry, TableGeometry>;
Geometry MakeGeometry(const Residual& residual);

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

#endif  // NQUEENS_COUNT_RESIDUAL_H_
