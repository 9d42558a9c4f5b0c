// The projection of blocks 2 and 4 (Grigoryan 2019, sections 4.5 and 4.7):
// the free rows x free columns of the board as a small matrix L whose cells
// keep their original row and column, so diagonal attacks are still those of
// the full board (the paper's rAr/tAr arrays).
//
// Blocks 3 (rand&rand) and 5 (min-risk/min-damage) place queens on it. A row
// is *live* until it gets a queen. Placing a queen closes its row and every
// free cell on its column and two diagonals; a live row left with no free
// cell is a dead end, detected at once.
//
// Two ways of finding the cells a queen closes, chosen by density:
// - kScan (block 2's projection, dense and large): for each live row, compute
//   the two diagonal cells from original coordinates.
// - kLines (block 4's compact board, sparse): columns and diagonals are
//   *lines* that list the cells they held when the board was built and count
//   the free ones, so a placement touches only the cells it closes and the
//   damage of a cell (the paper's array E: free cells of other rows it would
//   close) is three counts. Building the lists costs more than it saves on the
//   dense board.
#ifndef NQUEENS_PIPELINE_SUB_BOARD_H_
#define NQUEENS_PIPELINE_SUB_BOARD_H_

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "base/stop_poller.h"
#include "pipeline/board_state.h"

namespace nqueens::internal {

enum class CellTracking { kScan, kLines };

// Numbers the members of a set of integers in [0, universe) densely, in
// increasing order, with O(1) look-up: one bit per value plus a running count
// per 64-bit word (about 0.19 bytes per value of the universe, which is a
// line index of the whole board: 190 MB for the columns at n = 10^9). In
// huge pages: numberings of hundreds of MB are slow to free in 4 KiB pages,
// with no poll possible inside (docs/constants.md, DenseNumbering).
class DenseNumbering {
 public:
  // Makes this the empty set of [0, universe), in polled stretches. False
  // once stopped, leaving it unusable.
  bool Reset(size_t universe, StopPoller& stop) {
    universe_ = universe;
    members_.clear();
    return AppendPolled(members_, universe / 64 + 1, 0, stop);
  }
  void Insert(size_t value) { members_[value >> 6] |= uint64_t{1} << (value & 63); }
  static constexpr uint32_t kAbsent = std::numeric_limits<uint32_t>::max();
  // The number of `value`, or kAbsent when it is not a member (or outside
  // the universe); one word read for both questions.
  uint32_t Find(int64_t value) const {
    // Whether the value is inside comes as arithmetic, not a branch: block
    // 2's scans ask about columns on random diagonals, half of them off the
    // board. Membership stays a branch, mostly "no" on a large board, where
    // skipping the rank look-up is worth it.
    const uint64_t inside = static_cast<uint64_t>(value) < universe_;
    const size_t at = static_cast<size_t>(value) & (0 - inside);
    const uint64_t word = members_[at >> 6] & (0 - inside);
    const uint64_t bit = uint64_t{1} << (at & 63);
    if ((word & bit) == 0) return kAbsent;
    return rank_[at >> 6] + static_cast<uint32_t>(__builtin_popcountll(word & (bit - 1)));
  }
  // Call once after the last Insert. Polled like Reset.
  bool Seal(StopPoller& stop);
  uint32_t size() const { return size_; }
  // The number of a member value.
  uint32_t Number(size_t value) const {
    const uint64_t below = members_[value >> 6] & ((uint64_t{1} << (value & 63)) - 1);
    return rank_[value >> 6] + static_cast<uint32_t>(__builtin_popcountll(below));
  }

 private:
  size_t universe_ = 0;
  HugeVector<uint64_t> members_;
  HugeVector<uint32_t> rank_;  // members in the words before this one
  uint32_t size_ = 0;
};

class SubBoard {
 public:
  static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

  // Projects `state` onto `rows` x `columns` (its free rows and free
  // columns, equally many; any order). nullopt once `stop` fires: the
  // projection takes O(size^2) look-ups and its numberings O(n).
  static std::optional<SubBoard> Project(const BoardState& state, absl::Span<const uint32_t> rows,
                                         absl::Span<const uint32_t> columns, CellTracking tracking,
                                         StopPoller& stop);

  // Block 4: a smaller projection holding only the live rows and the unused
  // columns, with kLines tracking. nullopt once `stop` fires.
  std::optional<SubBoard> Compact(StopPoller& stop) const;

  uint32_t live_rows() const { return static_cast<uint32_t>(live_.size()); }
  // The i-th live row (order changes as rows die).
  uint32_t LiveRow(uint32_t i) const { return live_[i]; }
  uint32_t FreeCount(uint32_t row) const { return free_count_[row]; }
  // True when a live row has no free cell left.
  bool HasDeadRow() const;

  // The free cells of `row`, ascending.
  std::vector<uint32_t> FreeCells(uint32_t row) const;
  // The k-th (0-based) free cell of `row`; k < FreeCount(row).
  uint32_t NthFreeCell(uint32_t row, uint32_t k) const;
  // Free cells of the other live rows that a queen on the free cell
  // (row, column) would close: the min-damage criterion. kLines only.
  uint32_t Damage(uint32_t row, uint32_t column) const;

  // Puts a queen on the free cell (row, column). Returns false when this
  // leaves some live row without a free cell (a dead end).
  bool Place(uint32_t row, uint32_t column);

  // Copies the queens placed here onto the full board.
  void WriteTo(BoardState& state) const;

 private:
  struct Cell {
    uint32_t row, column;
  };
  // What never changes after construction; copies share it.
  struct Geometry {
    uint32_t n = 0;                 // size of the full board
    std::vector<uint32_t> rows;     // original row of each row here
    std::vector<uint32_t> columns;  // original column of each column here
    CellTracking tracking;
    // kScan: original column -> column here.
    DenseNumbering column_numbers;
    // kLines: columns first, then diagonals, then anti-diagonals. The cells
    // of line l are line_cells[line_start[l] .. line_start[l + 1]).
    std::vector<uint32_t> line_start;
    std::vector<Cell> line_cells;
    // kLines: the diagonal and anti-diagonal line of each free cell, at
    // row * size + column. 2.4 MB for the 547 rows left at n = 10^6.
    HugeVector<std::array<uint32_t, 2>> cell_diagonals;

    Geometry(uint32_t board_size, std::vector<uint32_t> row_list, std::vector<uint32_t> column_list,
             CellTracking cell_tracking);
    // kScan: sorts and numbers the columns. False once `stop` fires.
    bool NumberColumns(StopPoller& stop);
    // kLines: lists the cells of each line. False once `stop` fires.
    bool BuildLines(const std::vector<Cell>& cells, StopPoller& stop);
    // BuildLines' last step, once each cell knows its `lines` lines.
    bool ListCellsByLine(const std::vector<Cell>& cells, size_t lines, StopPoller& stop);
    // kScan: calls visit(column) for the cells of `row` on the diagonals
    // through (from_row, from_column).
    template <typename Visit>
    void ForEachDiagonalCell(uint32_t row, uint32_t from_row, uint32_t from_column,
                             Visit visit) const;
    std::array<uint32_t, 3> LinesThrough(uint32_t row, uint32_t column) const {
      const auto& diagonals = cell_diagonals[size_t{row} * columns.size() + column];
      return {column, diagonals[0], diagonals[1]};
    }
  };

  // The SubBoard on `geometry` whose free cells are the bits of `free`, a row
  // of (size + 63) / 64 words for each row; with kLines, also builds the
  // geometry's lines. nullopt once `stop` fires.
  static std::optional<SubBoard> Make(const std::shared_ptr<Geometry>& geometry,
                                      std::vector<uint64_t> free, StopPoller& stop);
  // Make() without the lines.
  SubBoard(std::shared_ptr<const Geometry> geometry, std::vector<uint64_t> free);
  // kLines: builds `geometry`'s lines (this board's, not yet shared) and
  // their free-cell counts. False once `stop` fires.
  bool TrackLines(Geometry& geometry, StopPoller& stop);
  bool PlaceByScanning(uint32_t row, uint32_t column);
  bool PlaceAlongLines(uint32_t row, uint32_t column);

  // Closes the cell and says whether it was free; branch-free, as whether it
  // still is is anybody's guess.
  bool ClearCell(uint32_t row, uint32_t column) {
    uint64_t& word = free_[row * words_per_row_ + column / 64];
    const uint64_t was_free = (word >> (column % 64)) & 1;
    word &= ~(was_free << (column % 64));
    free_count_[row] -= static_cast<uint32_t>(was_free);
    return was_free;
  }
  // ClearCell with kLines tracking: also counts the cell off its lines.
  bool CloseCell(uint32_t row, uint32_t column);
  // Calls visit(column) for each free cell of `row`, ascending.
  template <typename Visit>
  void ForEachFreeCell(uint32_t row, Visit visit) const {
    const uint64_t* words = &free_[size_t{row} * words_per_row_];
    for (uint32_t w = 0; w < words_per_row_; ++w) {
      for (uint64_t bits = words[w]; bits != 0; bits &= bits - 1) {
        visit(w * 64 + static_cast<uint32_t>(__builtin_ctzll(bits)));
      }
    }
  }
  void RemoveLive(uint32_t row);

  std::shared_ptr<const Geometry> geometry_;
  uint32_t words_per_row_ = 0;
  std::vector<uint64_t> free_;           // bit (row, column): the cell is free
  std::vector<uint32_t> free_count_;     // free cells per row
  std::vector<uint32_t> line_free_;      // kLines: free cells per line
  std::vector<uint32_t> live_;           // rows still without a queen
  std::vector<uint32_t> live_position_;  // index into live_, or kNone
  std::vector<uint32_t> queen_column_;   // column of the row's queen, or kNone
};

}  // namespace nqueens::internal

#endif  // NQUEENS_PIPELINE_SUB_BOARD_H_
