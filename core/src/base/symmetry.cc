// The dihedral group of the square acting on dense boards (nqueens/board.h).
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "nqueens/board.h"

namespace nqueens {
namespace {

// The image of the queen at (row, column), both 1-based, under `symmetry`:
// the mirror first when symmetry >= 4, then symmetry % 4 clockwise turns.
Queen MapQueen(uint32_t n, uint32_t symmetry, Queen queen) {
  if (symmetry >= 4) queen.column = n + 1 - queen.column;
  for (uint32_t turn = 0; turn < symmetry % 4; ++turn) {
    queen = {queen.column, n + 1 - queen.row};
  }
  return queen;
}

// The error for two queens of the input in `column` (rows first < second),
// which an odd number of quarter turns would put into one row.
absl::Status TwoQueensInColumn(absl::Span<const uint32_t> columns, uint32_t column,
                               uint32_t second_row) {
  uint32_t first_row = 1;
  while (columns[first_row - 1] != column) ++first_row;
  return absl::InvalidArgumentError(
      absl::StrCat("column ", column, " holds queens in rows ", first_row, " and ", second_row,
                   ": its image under a quarter turn would put two queens in one row"));
}

}  // namespace

absl::StatusOr<Columns> ApplySymmetry(absl::Span<const uint32_t> columns, uint32_t symmetry) {
  if (symmetry >= kSymmetryCount) {
    return absl::InvalidArgumentError(
        absl::StrCat("symmetry must be 0..", kSymmetryCount - 1, ", not ", symmetry));
  }
  const uint64_t n = columns.size();
  if (n == 0) return Columns();
  if (absl::Status status = CheckDenseShape(n, columns); !status.ok()) return status;
  const auto rows = static_cast<uint32_t>(n);
  // One board for the image, written row by row where rows stay rows.
  Columns image = MakeEmptyBoard(n);
  for (uint32_t row = 1; row <= rows; ++row) {
    const uint32_t column = columns[row - 1];
    if (column == kEmptyRow) continue;
    const Queen to = MapQueen(rows, symmetry, {row, column});
    if (image[to.row - 1] != kEmptyRow) return TwoQueensInColumn(columns, column, row);
    image[to.row - 1] = to.column;
  }
  return image;
}

}  // namespace nqueens
