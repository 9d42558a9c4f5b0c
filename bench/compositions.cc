#include "compositions.h"

#include <numeric>
#include <utility>
#include <vector>

namespace nqueens::bench {
namespace {

// Lines of a board taken by queens, 0-based coordinates.
class TakenLines {
 public:
  explicit TakenLines(uint32_t n)
      : n_(n), column_(n), diagonal_(2 * size_t{n}), anti_diagonal_(2 * size_t{n}) {}
  bool ColumnFree(uint32_t column) const { return !column_[column]; }
  bool DiagonalsFree(uint32_t row, uint32_t column) const {
    return !diagonal_[n_ + column - row] && !anti_diagonal_[row + column];
  }
  void Take(uint32_t row, uint32_t column) {
    column_[column] = diagonal_[n_ + column - row] = anti_diagonal_[row + column] = true;
  }

 private:
  uint32_t n_;
  std::vector<bool> column_, diagonal_, anti_diagonal_;
};

}  // namespace

uint32_t Below(uint32_t bound, Random& random) {
  return std::uniform_int_distribution<uint32_t>(0, bound - 1)(random);
}

bool HasDeadLine(const Columns& composition) {
  const uint32_t n = static_cast<uint32_t>(composition.size());
  TakenLines taken(n);
  std::vector<uint32_t> rows;
  for (uint32_t row = 0; row < n; ++row) {
    if (composition[row] == kEmptyRow) {
      rows.push_back(row);
    } else {
      taken.Take(row, composition[row] - 1);
    }
  }
  std::vector<uint32_t> columns;
  for (uint32_t column = 0; column < n; ++column) {
    if (taken.ColumnFree(column)) columns.push_back(column);
  }
  std::vector<bool> column_live(columns.size());
  bool every_row_live = true;
  for (uint32_t row : rows) {
    bool row_live = false;
    for (size_t j = 0; j < columns.size(); ++j) {
      if (taken.DiagonalsFree(row, columns[j])) row_live = column_live[j] = true;
    }
    every_row_live = every_row_live && row_live;
  }
  return !every_row_live ||
         std::find(column_live.begin(), column_live.end(), false) != column_live.end();
}

std::optional<Columns> RandomComposition(uint32_t n, uint32_t k, Random& random) {
  std::vector<uint32_t> free_rows(n), free_columns(n);
  for (uint32_t i = 0; i < n; ++i) free_rows[i] = free_columns[i] = i;
  TakenLines taken(n);
  Columns composition(n, kEmptyRow);
  uint32_t left = n;  // free rows (and columns) are the first `left` entries
  for (uint64_t draw = 0; draw < uint64_t{n} * n && n - left < k; ++draw) {
    const uint32_t i = Below(left, random), j = Below(left, random);
    const uint32_t row = free_rows[i], column = free_columns[j];
    if (!taken.DiagonalsFree(row, column)) continue;
    taken.Take(row, column);
    composition[row] = column + 1;
    --left;
    free_rows[i] = free_rows[left];
    free_columns[j] = free_columns[left];
  }
  if (n - left < k) return std::nullopt;
  return composition;
}

Columns KeepRandomRows(const Columns& solution, uint32_t k, Random& random) {
  std::vector<uint32_t> rows(solution.size());
  std::iota(rows.begin(), rows.end(), 0u);
  // Partial Fisher-Yates: only the k kept rows need drawing.
  for (uint32_t i = 0; i < k; ++i) {
    std::swap(rows[i], rows[std::uniform_int_distribution<uint32_t>(i, rows.size() - 1)(random)]);
  }
  Columns composition(solution.size(), nqueens::kEmptyRow);
  for (uint32_t i = 0; i < k; ++i) composition[rows[i]] = solution[rows[i]];
  return composition;
}

}  // namespace nqueens::bench
