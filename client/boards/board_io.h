// Reading and writing boards in the formats of the CLI: three text formats
// and one binary format.
//
//   q       the paper's array Q: whitespace-separated integers, the column of
//           the queen in each row (1..n) or 0 for an empty row; the count of
//           integers is n. Line breaks do not matter.
//   matrix  n lines of n cells: `0` or `.` for an empty cell, `1` or `Q` for a
//           queen, at most one queen per row. Cells may be separated by spaces.
//   sparse  the first line holds n alone; every further line holds one queen
//           as `row column`, both 1-based, in any order.
//   binary  the array Q as unsigned 32-bit little-endian integers, 4 bytes
//           per row and nothing else: n = file size / 4. The fastest to read
//           and write, for large boards.
//
// In every text format `#` starts a comment that runs to the end of the line,
// blank lines are ignored, and a UTF-8 byte-order mark at the start is
// skipped. Errors name the line of the file (counting
// every line) and, where it applies, the row and column of the board.
//
// Auto-detection (--format auto) goes by the file name first: names ending in
// `.bin` or `.u32` are binary. Otherwise it looks at the content:
//   0. binary, if the first 4 KiB hold a NUL byte (text never does; a binary
//      board does as soon as one of its first 1,024 columns is below 2^24);
//   1. matrix, if the first content line contains `.` or `Q`, or the first
//      two content lines both hold the same number (at least 2) of `0`/`1`
//      cells;
//   2. sparse, if the first line is a single number and the second line, if
//      there is one, is two numbers (so a file holding just "1000" is the
//      empty 1000 x 1000 board);
//   3. q otherwise.
// A file that fits an earlier rule but was meant as a later format needs an
// explicit --format (e.g. a Q array written as "0 1" / "1 0" on two lines).
#ifndef NQUEENS_CLIENT_BOARDS_BOARD_IO_H_
#define NQUEENS_CLIENT_BOARDS_BOARD_IO_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "client/boards/board.h"
#include "nqueens/board.h"

namespace nqueens::client {

class ProgressBar;

enum class BoardFormat { kAuto, kQArray, kMatrix, kSparse, kBinary };

// The names of the formats, as --format and --output-format take them.
std::vector<std::string> BoardFormatNames();

// One of BoardFormatNames(); INVALID_ARGUMENT for anything else.
absl::StatusOr<BoardFormat> ParseBoardFormat(absl::string_view name);

// The format a file name implies: kBinary for names ending in `.bin` or
// `.u32`, kAuto (decide by content) for any other.
BoardFormat FormatFromPath(absl::string_view path);

// The format `text` is in, by the content rules at the top of this file.
BoardFormat DetectFormat(absl::string_view text);

// Parses `text` (for kBinary: the file's bytes); kAuto detects the format
// from the content first. Every column is within 1..n (or 0 for an empty row)
// when this succeeds; attacks are not checked. INVALID_ARGUMENT with a
// one-line message naming the line (text) or the row otherwise.
absl::StatusOr<Board> ParseBoard(absl::string_view text, BoardFormat format);

// A binary board whose `size` bytes were read straight into `values` (which
// holds ceil(size / 4) of them), so that a large board is never copied.
// INVALID_ARGUMENT when size is 0 or not a multiple of 4, or a column is
// above n.
absl::StatusOr<Board> ParseBinaryBoard(Columns values, uint64_t size);

// --- Files (board_file.cc). "-" stands for stdin. ---

// The whole content of the file at `path`.
absl::StatusOr<std::string> ReadInput(const std::string& path);

// Reads and parses the board in the file at `path`; kAuto decides by the
// file name, then by the content. Binary boards are read straight into the
// board's memory. Shows "reading" and "parsing" phases on `progress` (may be
// null). Errors are prefixed with the file's name ("stdin" for "-").
absl::StatusOr<Board> LoadBoard(const std::string& path, BoardFormat format,
                                ProgressBar* progress = nullptr);

// Largest board written as a matrix: the output grows as n^2.
inline constexpr uint64_t kMaxMatrixOutputSize = 10000;

// OK when a board of size n can be written in `format` (not kAuto).
absl::Status CheckOutputFormat(uint64_t n, BoardFormat format);

// Writes `columns` in `format` (not kAuto; see CheckOutputFormat) through
// `sink`, in pieces of at most a few MiB. Text formats end with a newline.
void WriteBoard(absl::Span<const uint32_t> columns, BoardFormat format,
                absl::FunctionRef<void(absl::string_view)> sink);

// WriteBoard into a string, for small boards and tests.
std::string FormatBoard(absl::Span<const uint32_t> columns, BoardFormat format);

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_BOARDS_BOARD_IO_H_
