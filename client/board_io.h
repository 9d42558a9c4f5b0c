// Reading and writing boards in the three text formats of the CLI.
//
//   q       the paper's array Q: whitespace-separated integers, the column of
//           the queen in each row (1..n) or 0 for an empty row; the count of
//           integers is n. Line breaks do not matter.
//   matrix  n lines of n cells: `0` or `.` for an empty cell, `1` or `Q` for a
//           queen, at most one queen per row. Cells may be separated by spaces.
//   sparse  the first line holds n alone; every further line holds one queen
//           as `row column`, both 1-based, in any order.
//
// In every format `#` starts a comment that runs to the end of the line, and
// blank lines are ignored. Errors name the line of the file (counting every
// line) and, where it applies, the row and column of the board.
//
// Auto-detection (--format auto) looks at the first two content lines only:
//   1. matrix, if the first line contains `.` or `Q`, or the first two lines
//      both hold the same number (at least 2) of `0`/`1` cells;
//   2. sparse, if the first line is a single number and the second line, if
//      there is one, is two numbers (so a file holding just "1000" is the
//      empty 1000 x 1000 board);
//   3. q otherwise.
// A file that fits an earlier rule but was meant as a later format needs an
// explicit --format (e.g. a Q array written as "0 1" / "1 0" on two lines).
#ifndef NQUEENS_CLIENT_BOARD_IO_H_
#define NQUEENS_CLIENT_BOARD_IO_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "nqueens/board.h"

namespace nqueens::client {

enum class BoardFormat { kAuto, kQArray, kMatrix, kSparse };

// "auto", "q", "matrix", "sparse"; INVALID_ARGUMENT for anything else.
absl::StatusOr<BoardFormat> ParseBoardFormat(absl::string_view name);

// A board as it was given: dense for the Q array and the matrix, sparse for
// the sparse format, so that a huge, nearly empty board costs memory only for
// its queens until something needs it dense.
struct Board {
  uint64_t n = 0;
  Columns columns;            // dense form (size n), or empty when sparse
  std::vector<Queen> queens;  // sparse form, in row order, rows distinct

  bool is_sparse() const { return columns.empty(); }
  uint64_t queen_count() const;
};

// Converts `board` in place to the dense form (a no-op when it is dense).
// INVALID_ARGUMENT when its queens are out of range or share a row.
absl::Status MakeDense(Board& board);
// Converts `board` in place to the sparse form.
void MakeSparse(Board& board);

// The format `text` is in, by the rules at the top of this file.
BoardFormat DetectFormat(absl::string_view text);

// Parses `text`; kAuto detects the format first. Every column is within 1..n
// (or 0 in the Q array) when this succeeds; attacks are not checked.
// INVALID_ARGUMENT with a one-line message naming the line otherwise.
absl::StatusOr<Board> ParseBoard(absl::string_view text, BoardFormat format);

// The whole content of the file at `path`, or of stdin for "-".
absl::StatusOr<std::string> ReadInput(const std::string& path);

// Largest board written as a matrix: the output grows as n^2.
inline constexpr uint64_t kMaxMatrixOutputSize = 10000;

// OK when a board of size n can be written in `format` (not kAuto).
absl::Status CheckOutputFormat(uint64_t n, BoardFormat format);

// Writes `columns` in `format` (q, matrix or sparse; see CheckOutputFormat)
// through `sink`, in pieces of bounded size, ending with a newline.
void WriteBoard(absl::Span<const uint32_t> columns, BoardFormat format,
                absl::FunctionRef<void(absl::string_view)> sink);

// WriteBoard into a string, for small boards and tests.
std::string FormatBoard(absl::Span<const uint32_t> columns, BoardFormat format);

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_BOARD_IO_H_
