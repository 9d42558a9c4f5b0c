// Blocks 2 and 4: projecting the board onto its free rows x free columns,
// and the bookkeeping of queens placed on that projection.
#include "pipeline/sub_board.h"

#include <algorithm>
#include <utility>

#include "absl/container/btree_map.h"

namespace nqueens::internal {

bool DenseNumbering::Seal(StopPoller& stop) {
  rank_.clear();
  rank_.reserve(members_.size());
  size_ = 0;
  return RunInStretches(0, members_.size(), stop, [this](size_t first, size_t last) {
    for (size_t word = first; word < last; ++word) {
      rank_.push_back(size_);
      size_ += static_cast<uint32_t>(__builtin_popcountll(members_[word]));
    }
  });
}

SubBoard::Geometry::Geometry(uint32_t board_size, std::vector<uint32_t> row_list,
                             std::vector<uint32_t> column_list, CellTracking cell_tracking)
    : n(board_size),
      rows(std::move(row_list)),
      columns(std::move(column_list)),
      tracking(cell_tracking) {}

bool SubBoard::Geometry::NumberColumns(StopPoller& stop) {
  std::sort(columns.begin(), columns.end());  // numbering keeps their order
  if (!column_numbers.Reset(size_t{n} + 1, stop)) return false;
  for (uint32_t column : columns) column_numbers.Insert(column);
  return column_numbers.Seal(stop);
}

namespace {

// Calls visit(item) for each of `items`, polling between stretches; false
// once stopped. For the passes over the free cells of block 4's board, which
// touch the diagonal numberings (n / 4 bytes each) at random.
template <typename Items, typename Visit>
bool ForEachPolled(const Items& items, StopPoller& stop, Visit visit) {
  return RunInStretches(0, items.size(), stop, [&items, &visit](size_t first, size_t last) {
    for (size_t i = first; i < last; ++i) visit(items[i]);
  });
}

// Numbers the distinct lines inserted, in increasing order. Block 4's board
// has a few thousand rows and a few tens of thousands of free cells, whose
// diagonals an ordered map numbers in milliseconds; a DenseNumbering of
// each diagonal array (2n bits, cleared and ranked) took 0.18 s at
// n = 10^8 (docs/constants.md, LineNumbers).
class LineNumbers {
 public:
  void Insert(uint64_t line) { numbers_.emplace(line, 0); }
  // Call once after the last Insert; false once `stop` fires.
  bool Seal(StopPoller& stop) {
    uint32_t next = 0;
    for (auto& [line, number] : numbers_) {
      if (stop.ShouldStop()) return false;
      number = next++;
    }
    return true;
  }
  uint32_t size() const { return static_cast<uint32_t>(numbers_.size()); }
  // The number of an inserted line.
  uint32_t Number(uint64_t line) const { return numbers_.find(line)->second; }

 private:
  absl::btree_map<uint64_t, uint32_t> numbers_;
};

}  // namespace

bool SubBoard::Geometry::BuildLines(const std::vector<Cell>& cells, StopPoller& stop) {
  // Number the diagonals and anti-diagonals that hold a free cell.
  const uint32_t size = static_cast<uint32_t>(columns.size());
  if (!AppendPolled(cell_diagonals, size_t{size} * size, {}, stop)) return false;
  // Line numbers: the columns, then the diagonals, then the anti-diagonals.
  uint32_t next_line = size;
  // One numbering at a time, so that their maps are not held together
  // (docs/constants.md, Finishing).
  const auto number = [&](size_t side, auto line_of) {
    LineNumbers lines;
    if (!ForEachPolled(cells, stop, [&](const Cell& cell) { lines.Insert(line_of(cell)); }) ||
        !lines.Seal(stop)) {
      return false;
    }
    const bool numbered = ForEachPolled(cells, stop, [&](const Cell& cell) {
      cell_diagonals[size_t{cell.row} * size + cell.column][side] =
          next_line + lines.Number(line_of(cell));
    });
    next_line += lines.size();
    return numbered;
  };
  return number(0,
                [this](const Cell& cell) {
                  return size_t{n} + columns[cell.column] - rows[cell.row];
                }) &&
         number(
             1,
             [this](const Cell& cell) { return size_t{rows[cell.row]} + columns[cell.column]; }) &&
         ListCellsByLine(cells, next_line, stop);
}

bool SubBoard::Geometry::ListCellsByLine(const std::vector<Cell>& cells, size_t lines,
                                         StopPoller& stop) {
  // A counting sort of the cells by line.
  line_start.assign(lines + 1, 0);
  const bool counted = ForEachPolled(cells, stop, [this](const Cell& cell) {
    for (uint32_t line : LinesThrough(cell.row, cell.column)) ++line_start[line + 1];
  });
  if (!counted) return false;
  for (size_t line = 0; line < lines; ++line) line_start[line + 1] += line_start[line];
  line_cells.resize(line_start.back());
  std::vector<uint32_t> next(line_start.begin(), line_start.end() - 1);
  return ForEachPolled(cells, stop, [this, &next](const Cell& cell) {
    for (uint32_t line : LinesThrough(cell.row, cell.column)) line_cells[next[line]++] = cell;
  });
}

template <typename Visit>
void SubBoard::Geometry::ForEachDiagonalCell(uint32_t row, uint32_t from_row, uint32_t from_column,
                                             Visit visit) const {
  // A queen at original (R, C) attacks (R', C + (R' - R)) and (R', C - (R' - R)).
  const int64_t shift = int64_t{rows[row]} - rows[from_row];
  const int64_t column = columns[from_column];
  for (int64_t target : {column + shift, column - shift}) {
    const uint32_t index = column_numbers.Find(target);
    if (index != DenseNumbering::kAbsent) visit(index);
  }
}

std::optional<SubBoard> SubBoard::Project(const BoardState& state, absl::Span<const uint32_t> rows,
                                          absl::Span<const uint32_t> columns, CellTracking tracking,
                                          StopPoller& stop) {
  auto geometry =
      std::make_shared<Geometry>(state.n(), std::vector<uint32_t>(rows.begin(), rows.end()),
                                 std::vector<uint32_t>(columns.begin(), columns.end()), tracking);
  if (tracking == CellTracking::kScan && !geometry->NumberColumns(stop)) return std::nullopt;
  const Geometry& g = *geometry;
  const size_t size = g.columns.size(), words_per_row = (size + 63) / 64;
  std::vector<uint64_t> free(size * words_per_row, 0);
  for (size_t row = 0; row < size; ++row) {
    // A row is `size` look-ups in the control bits, cache misses on a huge
    // board: 2,800 of them per row at n = 10^9.
    if (stop.ShouldStop(size)) return std::nullopt;
    // Branch-free: on a random board a cell is free or not at random.
    uint64_t* words = &free[row * words_per_row];
    for (size_t column = 0; column < size; ++column) {
      const bool cell_free = state.DiagonalsFree(g.rows[row], g.columns[column]);
      words[column / 64] |= uint64_t{cell_free} << (column % 64);
    }
  }
  return Make(geometry, std::move(free), stop);
}

std::optional<SubBoard> SubBoard::Make(const std::shared_ptr<Geometry>& geometry,
                                       std::vector<uint64_t> free, StopPoller& stop) {
  SubBoard board(geometry, std::move(free));
  if (geometry->tracking == CellTracking::kLines && !board.TrackLines(*geometry, stop)) {
    return std::nullopt;
  }
  return board;
}

SubBoard::SubBoard(std::shared_ptr<const Geometry> geometry, std::vector<uint64_t> free)
    : geometry_(std::move(geometry)),
      words_per_row_(static_cast<uint32_t>((geometry_->rows.size() + 63) / 64)),
      free_(std::move(free)) {
  const uint32_t size = static_cast<uint32_t>(geometry_->rows.size());
  free_count_.assign(size, 0);
  for (uint32_t row = 0; row < size; ++row) {
    for (uint32_t w = 0; w < words_per_row_; ++w) {
      free_count_[row] +=
          static_cast<uint32_t>(__builtin_popcountll(free_[row * words_per_row_ + w]));
    }
  }
  live_.resize(size);
  live_position_.resize(size);
  for (uint32_t row = 0; row < size; ++row) live_[row] = live_position_[row] = row;
  queen_column_.assign(size, kNone);
}

bool SubBoard::TrackLines(Geometry& geometry, StopPoller& stop) {
  std::vector<Cell> cells;
  for (uint32_t row = 0; row < geometry.rows.size(); ++row) {
    ForEachFreeCell(row, [&cells, row](uint32_t column) { cells.push_back({row, column}); });
  }
  if (!geometry.BuildLines(cells, stop)) return false;
  line_free_.resize(geometry.line_start.size() - 1);
  for (size_t line = 0; line < line_free_.size(); ++line) {
    line_free_[line] = geometry.line_start[line + 1] - geometry.line_start[line];
  }
  return true;
}

std::optional<SubBoard> SubBoard::Compact(StopPoller& stop) const {
  const Geometry& g = *geometry_;
  std::vector<bool> taken(g.columns.size(), false);
  for (uint32_t column : queen_column_) {
    if (column != kNone) taken[column] = true;
  }
  std::vector<uint32_t> new_column(g.columns.size(), kNone);
  std::vector<uint32_t> columns;
  for (uint32_t column = 0; column < g.columns.size(); ++column) {
    if (taken[column]) continue;
    new_column[column] = static_cast<uint32_t>(columns.size());
    columns.push_back(g.columns[column]);
  }
  std::vector<uint32_t> rows;
  const size_t words_per_row = (columns.size() + 63) / 64;
  std::vector<uint64_t> free(columns.size() * words_per_row, 0);
  for (uint32_t row = 0; row < g.rows.size(); ++row) {
    if (queen_column_[row] != kNone) continue;
    uint64_t* words = &free[rows.size() * words_per_row];
    rows.push_back(g.rows[row]);
    ForEachFreeCell(row, [&](uint32_t column) {
      words[new_column[column] / 64] |= uint64_t{1} << (new_column[column] % 64);
    });
  }
  return Make(
      std::make_shared<Geometry>(g.n, std::move(rows), std::move(columns), CellTracking::kLines),
      std::move(free), stop);
}

bool SubBoard::CloseCell(uint32_t row, uint32_t column) {
  const bool was_free = ClearCell(row, column);
  for (uint32_t line : geometry_->LinesThrough(row, column)) line_free_[line] -= was_free;
  return was_free;
}

void SubBoard::RemoveLive(uint32_t row) {
  const uint32_t position = live_position_[row];
  const uint32_t last = live_.back();
  live_[position] = last;
  live_position_[last] = position;
  live_.pop_back();
  live_position_[row] = kNone;
}

bool SubBoard::HasDeadRow() const {
  return std::any_of(live_.begin(), live_.end(),
                     [this](uint32_t row) { return free_count_[row] == 0; });
}

std::vector<uint32_t> SubBoard::FreeCells(uint32_t row) const {
  std::vector<uint32_t> cells;
  cells.reserve(free_count_[row]);
  ForEachFreeCell(row, [&cells](uint32_t column) { cells.push_back(column); });
  return cells;
}

uint32_t SubBoard::NthFreeCell(uint32_t row, uint32_t k) const {
  const uint64_t* words = &free_[size_t{row} * words_per_row_];
  for (uint32_t w = 0;; ++w) {
    uint64_t bits = words[w];
    const uint32_t count = static_cast<uint32_t>(__builtin_popcountll(bits));
    if (k < count) {
      for (; k > 0; --k) bits &= bits - 1;
      return w * 64 + static_cast<uint32_t>(__builtin_ctzll(bits));
    }
    k -= count;
  }
}

uint32_t SubBoard::Damage(uint32_t row, uint32_t column) const {
  // Each line through the cell holds the cell itself; no other cell shares
  // two of these lines, and no other cell of `row` lies on any of them.
  uint32_t damage = 0;
  for (uint32_t line : geometry_->LinesThrough(row, column)) damage += line_free_[line] - 1;
  return damage;
}

bool SubBoard::Place(uint32_t row, uint32_t column) {
  RemoveLive(row);
  queen_column_[row] = column;
  if (geometry_->tracking == CellTracking::kLines) {
    ForEachFreeCell(row, [this, row](uint32_t cell) { CloseCell(row, cell); });
    return PlaceAlongLines(row, column);
  }
  std::fill_n(&free_[size_t{row} * words_per_row_], words_per_row_, 0);  // no lines to count
  free_count_[row] = 0;
  return PlaceByScanning(row, column);
}

bool SubBoard::PlaceByScanning(uint32_t row, uint32_t column) {
  bool all_rows_alive = true;
  for (uint32_t other : live_) {
    ClearCell(other, column);
    geometry_->ForEachDiagonalCell(other, row, column,
                                   [&](uint32_t cell) { ClearCell(other, cell); });
    all_rows_alive &= free_count_[other] > 0;
  }
  return all_rows_alive;
}

bool SubBoard::PlaceAlongLines(uint32_t row, uint32_t column) {
  bool all_rows_alive = true;
  const Geometry& g = *geometry_;
  for (uint32_t line : g.LinesThrough(row, column)) {
    for (uint32_t i = g.line_start[line]; i < g.line_start[line + 1]; ++i) {
      const Cell cell = g.line_cells[i];
      const bool closed = CloseCell(cell.row, cell.column);
      // The cells of a line are in different rows, none of them `row`.
      all_rows_alive &= !closed || free_count_[cell.row] > 0;
    }
  }
  return all_rows_alive;
}

void SubBoard::WriteTo(BoardState& state) const {
  const Geometry& g = *geometry_;
  for (uint32_t row = 0; row < g.rows.size(); ++row) {
    if (queen_column_[row] != kNone) state.Place(g.rows[row], g.columns[queen_column_[row]]);
  }
}

}  // namespace nqueens::internal
