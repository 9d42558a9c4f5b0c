#include "known_solutions.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "construction.h"
#include "huge_pages.h"

namespace nqueens::internal {
namespace {

// One symmetry of the square, as the map from a board cell (r, c) to the cell
// of the construction it must match: optionally mirror the row, mirror the
// column, then swap the two.
struct Symmetry {
  bool mirror_row, mirror_column, transpose;
};

constexpr std::array<Symmetry, 8> kSymmetries = {{{false, false, false},
                                                  {false, true, false},
                                                  {true, false, false},
                                                  {true, true, false},
                                                  {false, false, true},
                                                  {false, true, true},
                                                  {true, false, true},
                                                  {true, true, true}}};

bool Fits(uint32_t n, uint32_t row, uint32_t column, const Symmetry& s) {
  const uint32_t r = s.mirror_row ? n + 1 - row : row;
  const uint32_t c = s.mirror_column ? n + 1 - column : column;
  return s.transpose ? ConstructedColumn(n, c) == r : ConstructedColumn(n, r) == c;
}

// The image of the construction under `s`: cell (r, c) of the construction,
// with r and c undone as Fits() applies them. The poller's status once it
// fires.
absl::StatusOr<Columns> Image(uint32_t n, const Symmetry& s, StopPoller& stop) {
  Columns board;
  ReserveHuge(board, n);
  if (!AppendPolled(board, n, kEmptyRow, stop)) return stop.status();
  const bool done = RunInStretches(1, size_t{n} + 1, stop, [&](size_t first, size_t last) {
    for (uint32_t x = static_cast<uint32_t>(first); x < last; ++x) {
      const uint32_t y = ConstructedColumn(n, x);
      // (x, y) is a construction cell; find the board cell that maps to it.
      const uint32_t r = s.transpose ? y : x;
      const uint32_t c = s.transpose ? x : y;
      const uint32_t row = s.mirror_row ? n + 1 - r : r;
      board[row - 1] = s.mirror_column ? n + 1 - c : c;
    }
  });
  if (!done) return stop.status();
  return board;
}

// Indexed by kSymmetries: whether the composition still fits that image.
using Alive = std::array<bool, kSymmetries.size()>;

// Rules out the symmetries that the queens of rows [first, last) do not fit;
// returns how many are left.
size_t RuleOut(const Columns& composition, size_t first, size_t last, Alive& alive,
               size_t alive_count) {
  const uint32_t n = static_cast<uint32_t>(composition.size());
  for (size_t row = first; row < last && alive_count > 0; ++row) {
    const uint32_t column = composition[row - 1];
    if (column == kEmptyRow) continue;
    for (size_t i = 0; i < kSymmetries.size(); ++i) {
      if (alive[i] && !Fits(n, static_cast<uint32_t>(row), column, kSymmetries[i])) {
        alive[i] = false;
        --alive_count;
      }
    }
  }
  return alive_count;
}

}  // namespace

absl::StatusOr<std::optional<Columns>> CompleteFromConstruction(const Columns& composition,
                                                                StopPoller& stop) {
  const uint32_t n = static_cast<uint32_t>(composition.size());
  if (n == 2 || n == 3) return std::nullopt;  // no construction there
  // One pass for all symmetries: most inputs rule every one out at the first
  // queen.
  Alive alive;
  alive.fill(true);
  size_t alive_count = alive.size();
  for (size_t first = 1; first <= n && alive_count > 0; first += StopPoller::kRowsPerPoll) {
    if (stop.CheckNow()) return stop.status();
    const size_t last = std::min<size_t>(size_t{n} + 1, first + StopPoller::kRowsPerPoll);
    alive_count = RuleOut(composition, first, last, alive, alive_count);
  }
  for (size_t i = 0; i < kSymmetries.size(); ++i) {
    if (alive[i]) return Image(n, kSymmetries[i], stop);
  }
  return std::nullopt;
}

}  // namespace nqueens::internal
