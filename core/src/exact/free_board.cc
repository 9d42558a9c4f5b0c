#include "exact/free_board.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "base/bit_array.h"

namespace nqueens::internal {
namespace {

// Diagonal keys of cell (row, column) of the n x n board, 1-based: r = n +
// column - row (kind 0) and t = row + column (kind 1), both in 1..2n.
uint64_t DiagonalKey(int kind, uint64_t n, uint64_t row, uint64_t column) {
  return kind == 0 ? n + column - row : row + column;
}

}  // namespace

absl::Status FreeBoard::MarkGivenQueens(absl::Span<const uint32_t> composition, UsedLines& used,
                                        StopPoller& stop) {
  const uint64_t n = composition.size();
  if (!used.columns.Reset(n + 1, stop) || !used.diagonals[0].Reset(2 * n + 1, stop) ||
      !used.diagonals[1].Reset(2 * n + 1, stop)) {
    return stop.status();
  }
  for (uint64_t first = 0; first < n; first += StopPoller::kRowsPerPoll) {
    if (stop.CheckNow()) return stop.status();
    const uint64_t last = std::min<uint64_t>(n, first + StopPoller::kRowsPerPoll);
    for (uint64_t i = first; i < last; ++i) {
      const uint64_t row = i + 1, column = composition[i];
      if (column == kEmptyRow) {
        rows_.push_back(static_cast<uint32_t>(row));
        continue;
      }
      if (column > n || used.columns.Test(column)) {
        return absl::FailedPreconditionError(
            absl::StrCat("row ", row, " (column ", column, ") breaks the composition"));
      }
      used.columns.Set(column);
      for (int kind : {0, 1}) used.diagonals[kind].Set(DiagonalKey(kind, n, row, column));
    }
  }
  return absl::OkStatus();
}

bool FreeBoard::ListFreeColumns(uint64_t n, const BitArray& column_used, StopPoller& stop) {
  return RunInStretches(1, n + 1, stop, [this, &column_used](size_t first, size_t last) {
    column_used.ForEachClear(first, last, [this](size_t column) {
      columns_.push_back(static_cast<uint32_t>(column));
      return true;
    });
  });
}

absl::StatusOr<FreeBoard> FreeBoard::Build(absl::Span<const uint32_t> composition,
                                           StopPoller& stop) {
  const uint64_t n = composition.size();
  FreeBoard board;
  UsedLines used;
  if (absl::Status status = board.MarkGivenQueens(composition, used, stop); !status.ok()) {
    return status;
  }
  if (!board.ListFreeColumns(n, used.columns, stop)) return stop.status();
  const uint32_t d = board.size();
  board.open_ = BitMatrix(d);
  for (uint32_t a = 0; a < d; ++a) {
    if (stop.ShouldStop(d)) return stop.status();
    for (uint32_t b = 0; b < d; ++b) {
      const uint32_t row = board.rows_[a], column = board.columns_[b];
      if (!used.diagonals[0].Test(DiagonalKey(0, n, row, column)) &&
          !used.diagonals[1].Test(DiagonalKey(1, n, row, column))) {
        board.open_.Set(a, b);
      }
    }
  }
  if (d <= kLineListsMaxFreeRows) {
    board.lines_through_.assign(size_t{d} * d, {kNone, kNone});
    for (int kind : {0, 1}) board.GroupLines(n, kind);
    board.MeasureDiagonalLoad();
  }
  return board;
}

// Sorts the open cells by their key of `kind` and makes a line of every run
// of two cells or more.
void FreeBoard::GroupLines(uint64_t n, int kind) {
  std::vector<uint64_t> keyed_cells;  // key << 32 | cell
  for (uint32_t a = 0; a < size(); ++a) {
    ForEachBit(open_.Row(a), open_.words_per_row(), [&](uint32_t b) {
      keyed_cells.push_back(DiagonalKey(kind, n, rows_[a], columns_[b]) << 32 | MakeCell(a, b));
    });
  }
  std::sort(keyed_cells.begin(), keyed_cells.end());
  for (size_t begin = 0, end = 0; begin < keyed_cells.size(); begin = end) {
    while (end < keyed_cells.size() && keyed_cells[end] >> 32 == keyed_cells[begin] >> 32) ++end;
    if (end - begin < 2) continue;
    for (size_t i = begin; i < end; ++i) {
      const Cell cell = static_cast<Cell>(keyed_cells[i]);
      line_cells_.push_back(cell);
      lines_through_[size_t{RowOf(cell)} * size() + ColumnOf(cell)][kind] = line_count();
    }
    line_start_.push_back(static_cast<uint32_t>(line_cells_.size()));
  }
}

void FreeBoard::MeasureDiagonalLoad() {
  const uint32_t d = size();
  std::vector<uint64_t> cells(size_t{2} * d), diagonal_cells(size_t{2} * d);
  for (uint32_t a = 0; a < d; ++a) {
    ForEachBit(open_.Row(a), open_.words_per_row(), [&](uint32_t b) {
      uint64_t others = 0;
      for (uint32_t line : LinesThrough(a, b)) {
        if (line != kNone) others += CellsOf(line).size() - 1;
      }
      for (const uint32_t x : {a, d + b}) {
        ++cells[x];
        diagonal_cells[x] += others;
      }
    });
  }
  diagonal_load_.resize(size_t{2} * d);
  for (uint32_t x = 0; x < 2 * d; ++x) {
    diagonal_load_[x] = cells[x] == 0 ? 0 : static_cast<uint32_t>(diagonal_cells[x] / cells[x]);
  }
}

}  // namespace nqueens::internal
