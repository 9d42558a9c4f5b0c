// The free board of a composition, shared by the exact search's engines:
// its free rows and columns renumbered 0..d-1, the cells no given queen
// attacks, and the diagonals through them.
#ifndef NQUEENS_EXACT_FREE_BOARD_H_
#define NQUEENS_EXACT_FREE_BOARD_H_

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/numeric/bits.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/bit_array.h"
#include "base/stop_poller.h"
#include "nqueens/board.h"

namespace nqueens::internal {

// No row, column or line.
inline constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

// A size x size matrix of bits, each row in its own run of 64-bit words.
class BitMatrix {
 public:
  explicit BitMatrix(uint32_t size)
      : words_per_row_((size + 63) / 64), words_(size_t{size} * words_per_row_) {}

  bool Test(uint32_t row, uint32_t column) const {
    return (Word(row, column) >> (column % 64) & 1) != 0;
  }
  void Set(uint32_t row, uint32_t column) { Word(row, column) |= Bit(column); }
  // Clears the bit and returns its old value, without a branch.
  uint32_t TestAndClear(uint32_t row, uint32_t column) {
    uint64_t& word = Word(row, column);
    const uint32_t was_set = static_cast<uint32_t>(word >> (column % 64) & 1);
    word &= ~Bit(column);
    return was_set;
  }

  uint32_t words_per_row() const { return words_per_row_; }
  const uint64_t* Row(uint32_t row) const { return &words_[size_t{row} * words_per_row_]; }

 private:
  static uint64_t Bit(uint32_t column) { return uint64_t{1} << (column % 64); }
  uint64_t& Word(uint32_t row, uint32_t column) {
    return words_[size_t{row} * words_per_row_ + column / 64];
  }
  uint64_t Word(uint32_t row, uint32_t column) const {
    return words_[size_t{row} * words_per_row_ + column / 64];
  }

  uint32_t words_per_row_;
  std::vector<uint64_t> words_;
};

// Calls visit(column) for every bit set in `words` (a row of a BitMatrix),
// lowest first. `words` is read one word at a time, so visit may clear bits
// of the row it walks.
template <typename Visit>
void ForEachBit(const uint64_t* words, uint32_t word_count, Visit visit) {
  for (uint32_t w = 0; w < word_count; ++w) {
    for (uint64_t bits = words[w]; bits != 0; bits &= bits - 1) {
      visit(w * 64 + static_cast<uint32_t>(absl::countr_zero(bits)));
    }
  }
}

// The free board lists its lines (16 bytes a cell) when it has at most this
// many free rows: the word and trail engines use the lists. Larger boards go
// to the large engine, which walks the diagonals instead (search_engines.h).
inline constexpr uint32_t kLineListsMaxFreeRows = 1024;

// A cell of a free board with line lists: free row a in the high half, free
// column b in the low one.
using Cell = uint32_t;
static_assert(kLineListsMaxFreeRows <= (1u << 16), "a free row or column must fit in 16 bits");
inline Cell MakeCell(uint32_t a, uint32_t b) { return a << 16 | b; }
inline uint32_t RowOf(Cell cell) { return cell >> 16; }
inline uint32_t ColumnOf(Cell cell) { return cell & 0xffff; }

// A queen on free row a and free column b of a free board.
struct FreeQueen {
  uint32_t a, b;
  bool operator==(const FreeQueen& other) const { return a == other.a && b == other.b; }
};

// The part of a composition left to fill, renumbered: free row a (0..d-1) is
// board row rows[a], free column b is board column columns[b].
class FreeBoard {
 public:
  // O(n + d^2) for d free rows, and polled: the poller's status once it
  // fires.
  static absl::StatusOr<FreeBoard> Build(absl::Span<const uint32_t> composition, StopPoller& stop);

  uint32_t size() const { return static_cast<uint32_t>(rows_.size()); }
  uint32_t row(uint32_t a) const { return rows_[a]; }
  uint32_t column(uint32_t b) const { return columns_[b]; }
  // Every free row's board row, by free row; every free column's column.
  absl::Span<const uint32_t> rows() const { return rows_; }
  absl::Span<const uint32_t> columns() const { return columns_; }
  // The cells no given queen attacks.
  const BitMatrix& open() const { return open_; }

  // Lines are the diagonals and anti-diagonals holding two open cells or
  // more (a queen alone on its diagonal closes nothing along it). Listed only
  // on boards of at most kLineListsMaxFreeRows free rows.
  bool has_lines() const { return !lines_through_.empty() || size() == 0; }
  uint32_t line_count() const { return static_cast<uint32_t>(line_start_.size() - 1); }
  // The two lines through open cell (a, b), kNone where there is none.
  const std::array<uint32_t, 2>& LinesThrough(uint32_t a, uint32_t b) const {
    return lines_through_[size_t{a} * size() + b];
  }
  // The mean, over the open cells of row x (`row`) or column x, of the other
  // open cells on their diagonals (with the lists only).
  uint32_t DiagonalLoad(bool row, uint32_t x) const { return diagonal_load_[row ? x : size() + x]; }
  absl::Span<const Cell> CellsOf(uint32_t line) const {
    return absl::MakeConstSpan(line_cells_)
        .subspan(line_start_[line], line_start_[line + 1] - line_start_[line]);
  }

 private:
  FreeBoard() : open_(0) {}
  // One bit per column and per diagonal of the whole board: O(n) time and
  // n / 2 bytes, like the pipeline's own control arrays.
  struct UsedLines {
    BitArray columns;
    std::array<BitArray, 2> diagonals;  // by kind
  };
  // Lists the free rows and marks the lines the given queens hold; polled.
  // Fails when the composition is none (a repeated or out-of-range column).
  absl::Status MarkGivenQueens(absl::Span<const uint32_t> composition, UsedLines& used,
                               StopPoller& stop);
  // Lists the unused columns; polled.
  bool ListFreeColumns(uint64_t n, const BitArray& column_used, StopPoller& stop);
  void GroupLines(uint64_t n, int kind);
  // Fills diagonal_load_ from the lists.
  void MeasureDiagonalLoad();

  std::vector<uint32_t> rows_;     // 1-based, increasing
  std::vector<uint32_t> columns_;  // 1-based, increasing
  BitMatrix open_;
  // Line i holds line_cells_[line_start_[i] .. line_start_[i + 1]). All of
  // it is O(d^2) memory, whatever n is.
  std::vector<std::array<uint32_t, 2>> lines_through_;  // per cell, by kind
  std::vector<uint32_t> line_start_{0};
  std::vector<Cell> line_cells_;
  std::vector<uint32_t> diagonal_load_;  // rows', then columns'
};

}  // namespace nqueens::internal

#endif  // NQUEENS_EXACT_FREE_BOARD_H_
