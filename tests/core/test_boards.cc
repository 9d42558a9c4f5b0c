#include "test_boards.h"

#include <array>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <vector>

#include "base/rng.h"

namespace nqueens::test_boards {
namespace {

bool Attack(int64_t row1, int64_t column1, int64_t row2, int64_t column2) {
  return column1 == column2 || std::llabs(row1 - row2) == std::llabs(column1 - column2);
}

// Queens per column and per diagonal, for min-conflicts.
class LineCounts {
 public:
  explicit LineCounts(uint32_t n)
      : n_(n), column_(n + 1), diagonal_(2 * n + 1), anti_diagonal_(2 * n + 1) {}

  void Add(uint32_t row, uint32_t column, int delta) {
    column_[column] += delta;
    diagonal_[n_ + column - row] += delta;
    anti_diagonal_[row + column] += delta;
  }
  // Queens on the three lines through (row, column); a queen standing there
  // counts three times.
  int Attackers(uint32_t row, uint32_t column) const {
    return column_[column] + diagonal_[n_ + column - row] + anti_diagonal_[row + column];
  }

 private:
  uint32_t n_;
  std::vector<int> column_, diagonal_, anti_diagonal_;
};

// One min-conflicts attempt from a random permutation; empty when it stalls.
Columns MinConflicts(uint32_t n, internal::Rng& rng) {
  Columns columns(n);
  std::iota(columns.begin(), columns.end(), 1u);
  rng.Shuffle(columns.begin(), columns.end());
  LineCounts counts(n);
  for (uint32_t row = 1; row <= n; ++row) counts.Add(row, columns[row - 1], 1);
  const uint64_t max_steps = 100 * uint64_t{n};
  for (uint64_t step = 0; step < max_steps; ++step) {
    std::vector<uint32_t> conflicted_rows;
    for (uint32_t row = 1; row <= n; ++row) {
      if (counts.Attackers(row, columns[row - 1]) > 3) conflicted_rows.push_back(row);
    }
    if (conflicted_rows.empty()) return columns;
    const uint32_t row = conflicted_rows[rng.Below(static_cast<uint32_t>(conflicted_rows.size()))];
    counts.Add(row, columns[row - 1], -1);
    std::vector<uint32_t> best_columns;
    int fewest = 0;
    for (uint32_t column = 1; column <= n; ++column) {
      const int attackers = counts.Attackers(row, column);
      if (best_columns.empty() || attackers < fewest) {
        best_columns.assign(1, column);
        fewest = attackers;
      } else if (attackers == fewest) {
        best_columns.push_back(column);
      }
    }
    columns[row - 1] = best_columns[rng.Below(static_cast<uint32_t>(best_columns.size()))];
    counts.Add(row, columns[row - 1], 1);
  }
  return {};
}

// Bit masks of the lines taken, for the exhaustive searches (n <= 30).
struct TakenLines {
  uint64_t columns = 0, diagonals = 0, anti_diagonals = 0;

  static uint64_t Bit(uint32_t index) { return uint64_t{1} << index; }
  // row and column 0-based; diagonal indices stay below 2n <= 60.
  bool Free(uint32_t n, uint32_t row, uint32_t column) const {
    return !(columns & Bit(column)) && !(diagonals & Bit(n + column - row)) &&
           !(anti_diagonals & Bit(row + column));
  }
  TakenLines With(uint32_t n, uint32_t row, uint32_t column) const {
    return {columns | Bit(column), diagonals | Bit(n + column - row),
            anti_diagonals | Bit(row + column)};
  }
};

void VisitFromRow(uint32_t row, TakenLines taken, Columns& board,
                  const std::function<void(const Columns&)>& visit) {
  const uint32_t n = static_cast<uint32_t>(board.size());
  if (row == n) {
    visit(board);
    return;
  }
  VisitFromRow(row + 1, taken, board, visit);  // row left empty
  for (uint32_t column = 0; column < n; ++column) {
    if (!taken.Free(n, row, column)) continue;
    board[row] = column + 1;
    VisitFromRow(row + 1, taken.With(n, row, column), board, visit);
    board[row] = kEmptyRow;
  }
}

bool CompleteFromRow(uint32_t row, TakenLines taken, const Columns& composition) {
  const uint32_t n = static_cast<uint32_t>(composition.size());
  while (row < n && composition[row] != kEmptyRow) ++row;
  if (row == n) return true;
  for (uint32_t column = 0; column < n; ++column) {
    if (taken.Free(n, row, column) &&
        CompleteFromRow(row + 1, taken.With(n, row, column), composition)) {
      return true;
    }
  }
  return false;
}

}  // namespace

Columns RandomSolution(uint32_t n, uint64_t seed) {
  if (n == 1) return {1};
  if (n < 4) return {};
  internal::Rng rng(seed);
  for (;;) {
    Columns solution = MinConflicts(n, rng);
    if (!solution.empty()) return solution;
  }
}

Columns RandomSubComposition(const Columns& solution, uint32_t k, uint64_t seed) {
  internal::Rng rng(seed);
  std::vector<uint32_t> rows(solution.size());
  std::iota(rows.begin(), rows.end(), 0u);
  rng.Shuffle(rows.begin(), rows.end());
  Columns composition(solution.size(), kEmptyRow);
  for (uint32_t i = 0; i < k; ++i) composition[rows[i]] = solution[rows[i]];
  return composition;
}

Columns HardUnsolvableBoard() {
  std::ifstream file(NQUEENS_EXAMPLES_DIR "/excluded-diagonals-24.q");
  Columns board;
  for (uint32_t column; file >> column;) board.push_back(column);
  if (!file.eof() || board.empty()) std::abort();  // the example is missing or broken
  return board;
}

Columns RowOneBlocked(uint32_t n) {
  Columns columns(n, kEmptyRow);
  std::vector<bool> column_used(n + 1, false), diagonal_used(2 * n + 1, false),
      anti_diagonal_used(2 * n + 1, false), attacked(n + 1, false);
  uint32_t attacked_count = 0;
  // The cells of row 1 that a queen at (row, column) attacks.
  const auto row_one_cells = [](uint32_t row, uint32_t column) {
    return std::array<int64_t, 3>{int64_t{column}, int64_t{column} - (row - 1),
                                  int64_t{column} + (row - 1)};
  };
  for (uint32_t row = 2; row <= n && attacked_count < n; ++row) {
    uint32_t best_column = 0;
    uint32_t best_gain = 0;
    for (uint32_t column = 1; column <= n; ++column) {
      if (column_used[column] || diagonal_used[n + column - row] ||
          anti_diagonal_used[row + column]) {
        continue;
      }
      uint32_t gain = 0;
      for (int64_t cell : row_one_cells(row, column)) {
        if (cell >= 1 && cell <= n && !attacked[cell]) ++gain;
      }
      if (gain > best_gain) {
        best_gain = gain;
        best_column = column;
      }
    }
    if (best_column == 0) continue;
    columns[row - 1] = best_column;
    column_used[best_column] = diagonal_used[n + best_column - row] =
        anti_diagonal_used[row + best_column] = true;
    for (int64_t cell : row_one_cells(row, best_column)) {
      if (cell >= 1 && cell <= n && !attacked[cell]) {
        attacked[cell] = true;
        ++attacked_count;
      }
    }
  }
  return columns;
}

Columns RandomComposition(uint32_t n, uint32_t k, uint64_t seed) {
  internal::Rng rng(seed);
  std::vector<uint64_t> cells(uint64_t{n} * n);
  std::iota(cells.begin(), cells.end(), uint64_t{0});
  rng.Shuffle(cells.begin(), cells.end());
  Columns composition(n, kEmptyRow);
  uint32_t placed = 0;
  for (uint64_t cell : cells) {
    if (placed == k) break;
    const uint32_t row = static_cast<uint32_t>(cell / n);
    const uint32_t column = static_cast<uint32_t>(cell % n) + 1;
    bool open = composition[row] == kEmptyRow;
    for (uint32_t other = 0; open && other < n; ++other) {
      if (composition[other] != kEmptyRow && Attack(other, composition[other], row, column)) {
        open = false;
      }
    }
    if (!open) continue;
    composition[row] = column;
    ++placed;
  }
  return composition;
}

void ForEachComposition(uint32_t n, const std::function<void(const Columns&)>& visit) {
  Columns board(n, kEmptyRow);
  VisitFromRow(0, {}, board, visit);
}

uint64_t BruteForceAttackingPairs(const Columns& board) {
  uint64_t pairs = 0;
  for (size_t i = 0; i < board.size(); ++i) {
    for (size_t j = i + 1; j < board.size(); ++j) {
      if (board[i] != kEmptyRow && board[j] != kEmptyRow &&
          Attack(static_cast<int64_t>(i), board[i], static_cast<int64_t>(j), board[j])) {
        ++pairs;
      }
    }
  }
  return pairs;
}

bool BruteForceHasCompletion(const Columns& composition) {
  const uint32_t n = static_cast<uint32_t>(composition.size());
  TakenLines taken;
  for (uint32_t row = 0; row < n; ++row) {
    if (composition[row] != kEmptyRow) taken = taken.With(n, row, composition[row] - 1);
  }
  return CompleteFromRow(0, taken, composition);
}

}  // namespace nqueens::test_boards
