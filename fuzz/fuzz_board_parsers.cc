// The CLI's board parsers (client/boards/board_io.h) on arbitrary bytes, in
// every format: --format auto and each explicit one.
//
// Invariants:
//   - no crash, no sanitizer report, whatever the input;
//   - a board that parses is well formed: 1 <= n <= kMaxBoardSize, and its
//     dense columns or sparse queens are within 1..n (rows distinct, sorted);
//   - auto-detection parses as the format DetectFormat names;
//   - a parsed board, written by WriteBoard in its own format, parses back
//     to the same board; and so in every other format (matrix only for small
//     n, as its output grows as n^2).
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "client/boards/board_io.h"
#include "fuzz_check.h"
#include "nqueens/board.h"

namespace {

using nqueens::client::Board;
using nqueens::client::BoardFormat;

// Boards are made dense for the round trip only up to this size: a sparse
// file of a few bytes may claim n = 2^31 - 1, and its dense form would take
// 8 GiB.
constexpr uint64_t kMaxDenseRoundTrip = uint64_t{1} << 16;
// The matrix writer's output grows as n^2.
constexpr uint64_t kMaxMatrixRoundTrip = 256;

constexpr BoardFormat kFormats[] = {BoardFormat::kAuto, BoardFormat::kQArray, BoardFormat::kMatrix,
                                    BoardFormat::kSparse, BoardFormat::kBinary};

bool SameBoard(const Board& a, const Board& b) {
  return a.n == b.n && a.columns == b.columns && a.queens == b.queens;
}

void CheckWellFormed(const Board& board, int format) {
  FUZZ_CHECK(board.n >= 1 && board.n <= nqueens::kMaxBoardSize, "format %d: n = %llu", format,
             static_cast<unsigned long long>(board.n));
  if (board.is_sparse()) {
    uint64_t previous_row = 0;
    for (const nqueens::Queen& queen : board.queens) {
      FUZZ_CHECK(queen.row > previous_row && queen.row <= board.n,
                 "format %d: queen rows not ascending within 1..n", format);
      FUZZ_CHECK(queen.column >= 1 && queen.column <= board.n,
                 "format %d: row %u: column %u outside 1..n", format, queen.row, queen.column);
      previous_row = queen.row;
    }
  } else {
    FUZZ_CHECK(board.columns.size() == board.n, "format %d: %zu columns", format,
               board.columns.size());
    for (uint32_t column : board.columns) {
      FUZZ_CHECK(column <= board.n, "format %d: column %u above n", format, column);
    }
  }
}

// Writes `dense` in `format` and parses it back in that format.
void CheckRoundTrip(const Board& dense, BoardFormat format) {
  if (format == BoardFormat::kMatrix && dense.n > kMaxMatrixRoundTrip) return;
  const std::string text = nqueens::client::FormatBoard(dense.columns, format);
  absl::StatusOr<Board> again = nqueens::client::ParseBoard(text, format);
  FUZZ_CHECK(again.ok(), "format %d: written board does not parse: %s", static_cast<int>(format),
             again.status().ToString().c_str());
  FUZZ_CHECK(nqueens::client::MakeDense(*again).ok(), "format %d: not dense",
             static_cast<int>(format));
  FUZZ_CHECK(SameBoard(*again, dense), "format %d: round trip changed the board",
             static_cast<int>(format));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  for (BoardFormat format : kFormats) {
    absl::StatusOr<Board> board = nqueens::client::ParseBoard(text, format);
    if (!board.ok()) {
      FUZZ_CHECK(board.status().code() == absl::StatusCode::kInvalidArgument,
                 "format %d: unexpected error %s", static_cast<int>(format),
                 board.status().ToString().c_str());
      continue;
    }
    CheckWellFormed(*board, static_cast<int>(format));
    BoardFormat own = format;
    if (format == BoardFormat::kAuto) {
      own = nqueens::client::DetectFormat(text);
      absl::StatusOr<Board> explicit_format = nqueens::client::ParseBoard(text, own);
      FUZZ_CHECK(explicit_format.ok() && SameBoard(*board, *explicit_format),
                 "auto-detection differs from format %d", static_cast<int>(own));
    }
    if (board->n > kMaxDenseRoundTrip) continue;
    // Sparse boards are parsed with distinct rows within 1..n: the dense
    // form always exists.
    FUZZ_CHECK(nqueens::client::MakeDense(*board).ok(), "format %d: MakeDense failed",
               static_cast<int>(format));
    CheckRoundTrip(*board, own);
    if (format != BoardFormat::kAuto) continue;  // the others once per input
    for (BoardFormat other : kFormats) {
      if (other != BoardFormat::kAuto && other != own) CheckRoundTrip(*board, other);
    }
  }
  return 0;
}
