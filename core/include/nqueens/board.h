// The board types every other header speaks in.
//
// A board is the paper's array Q (Grigoryan 2019, section 2): Q[i] is the
// 1-based column of the queen in row i + 1, and 0 marks an empty row. A
// *composition* is a board whose queens do not attack each other; a
// *solution* is a composition with a queen in every row.
#ifndef NQUEENS_BOARD_H_
#define NQUEENS_BOARD_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace nqueens {

// Q[i] = column (1..n) of the queen in row i + 1, or kEmptyRow.
using Columns = std::vector<uint32_t>;
inline constexpr uint32_t kEmptyRow = 0;

// Largest board the core accepts: rows and columns must fit in uint32_t with
// room for the diagonal indices r = n + j - i and t = i + j.
inline constexpr uint64_t kMaxBoardSize = (uint64_t{1} << 31) - 1;

// One queen of the sparse form, both coordinates 1-based.
struct Queen {
  uint32_t row = 0;
  uint32_t column = 0;
  friend bool operator==(const Queen& a, const Queen& b) {
    return a.row == b.row && a.column == b.column;
  }
};

// Checks n itself: INVALID_ARGUMENT, naming the range, for n == 0 or n above
// kMaxBoardSize.
absl::Status CheckBoardSize(uint64_t n);

// Checks a dense board: its length is n (INVALID_ARGUMENT otherwise) and every
// column is 0..n (INVALID_ARGUMENT naming the first bad row otherwise). Does
// not look at attacks; see Validate() for that.
absl::Status CheckDenseShape(uint64_t n, absl::Span<const uint32_t> columns);

// The board of n empty rows, in memory advised to use 2 MiB pages where the
// kernel allows it (transparent huge pages in "madvise" mode), as every
// board the core makes. Big inputs for Complete should start from it:
// Complete frees its input when it stops, and freeing (and filling) a board
// is much faster in 2 MiB pages than in 4 KiB pages (docs/constants.md,
// MakeEmptyBoard).
Columns MakeEmptyBoard(uint64_t n);

// No rows yet, but room for `capacity` of them reserved in the same pages,
// untouched until they are written: for a board that arrives in pieces (a
// streamed request), whose memory is only paid for as it comes.
Columns ReserveBoard(uint64_t capacity);

// Builds the dense board from a sparse list (on MakeEmptyBoard).
// INVALID_ARGUMENT (naming the queen) for a row or column outside 1..n or a
// row given twice.
absl::StatusOr<Columns> DenseFromQueens(uint64_t n, absl::Span<const Queen> queens);

// The queens of a dense board, in row order.
std::vector<Queen> QueensFromDense(absl::Span<const uint32_t> columns);

// The eight symmetries of the square (the dihedral group), numbered 0..7:
// 0 identity, 1-3 rotations by 90, 180 and 270 degrees, 4 the mirror
// left-right, 5-7 that mirror followed by the rotations. Each maps
// solutions to solutions and compositions to compositions.
//
// The board is seen with row 1 at the top and column 1 at the left, and a
// rotation by 90 degrees turns it clockwise: the queen at (row r, column c)
// goes to (row c, column n + 1 - r). The mirror sends (r, c) to
// (r, n + 1 - c). Symmetry 4 + k is the mirror, then k quarter turns.
inline constexpr uint32_t kSymmetryCount = 8;

// The image of a dense board (any n, empty rows allowed) under `symmetry`,
// in one O(n) pass. INVALID_ARGUMENT for symmetry >= 8, for a malformed
// board (CheckDenseShape), and, for the symmetries that turn columns into
// rows (1, 3, 5, 7), for a column holding two queens, whose image would need
// two queens in one row (the message names the column and both rows).
absl::StatusOr<Columns> ApplySymmetry(absl::Span<const uint32_t> columns, uint32_t symmetry);

}  // namespace nqueens

#endif  // NQUEENS_BOARD_H_
