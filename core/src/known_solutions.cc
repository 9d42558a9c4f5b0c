#include "known_solutions.h"

#include <array>
#include <cstdint>

#include "construction.h"

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
// with r and c undone as Fits() applies them.
Columns Image(uint32_t n, const Symmetry& s) {
  Columns board(n);
  for (uint32_t x = 1; x <= n; ++x) {
    const uint32_t y = ConstructedColumn(n, x);
    // (x, y) is a construction cell; find the board cell that maps to it.
    const uint32_t r = s.transpose ? y : x;
    const uint32_t c = s.transpose ? x : y;
    const uint32_t row = s.mirror_row ? n + 1 - r : r;
    board[row - 1] = s.mirror_column ? n + 1 - c : c;
  }
  return board;
}

}  // namespace

std::optional<Columns> CompleteFromConstruction(const Columns& composition) {
  const uint32_t n = static_cast<uint32_t>(composition.size());
  if (n == 2 || n == 3) return std::nullopt;  // no construction there
  // One pass for all symmetries: most inputs rule every one out at the first
  // queen.
  std::array<bool, kSymmetries.size()> alive;
  alive.fill(true);
  size_t alive_count = alive.size();
  for (uint32_t row = 1; row <= n && alive_count > 0; ++row) {
    const uint32_t column = composition[row - 1];
    if (column == kEmptyRow) continue;
    for (size_t i = 0; i < kSymmetries.size(); ++i) {
      if (alive[i] && !Fits(n, row, column, kSymmetries[i])) {
        alive[i] = false;
        --alive_count;
      }
    }
  }
  for (size_t i = 0; i < kSymmetries.size(); ++i) {
    if (alive[i]) return Image(n, kSymmetries[i]);
  }
  return std::nullopt;
}

}  // namespace nqueens::internal
