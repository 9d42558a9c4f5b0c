// The 0/1 (or ./Q) matrix: n lines of n cells.
#include "client/boards/board_formats.h"

namespace nqueens::client::formats {
namespace {

// One matrix line: the column of its queen (0 for none), checking the cells.
absl::StatusOr<uint32_t> ParseMatrixRow(absl::string_view line, uint64_t line_number, uint64_t row,
                                        uint64_t n) {
  uint64_t cells = 0;
  uint64_t queen_column = 0;
  for (char cell : line) {
    if (IsSpace(cell)) continue;
    ++cells;
    if (cell == '0' || cell == '.') continue;
    if (cell != '1' && cell != 'Q') {
      return LineError(line_number, "row ", row, ", column ", cells, ": unexpected '",
                       absl::string_view(&cell, 1), "' (cells are 0, 1, . or Q)");
    }
    if (queen_column != 0) {
      return LineError(line_number, "row ", row, " has more than one queen (columns ", queen_column,
                       " and ", cells, ")");
    }
    queen_column = cells;
  }
  if (cells != n) {
    return LineError(line_number, "row ", row, " has ", cells, " cells, expected ", n);
  }
  return static_cast<uint32_t>(queen_column);
}

}  // namespace

absl::StatusOr<Board> ParseMatrix(absl::string_view text) {
  ContentLines lines(text);
  if (!lines.Next()) return NoBoard();
  Board board;
  board.n = CountCells(lines.line());
  if (board.n > kMaxBoardSize) {
    return LineError(lines.number(), "rows of ", board.n,
                     " cells are longer than the largest board, ", kMaxBoardSize);
  }
  board.columns.reserve(board.n);
  do {
    const uint64_t row = board.columns.size() + 1;
    if (row > board.n) {
      return LineError(lines.number(), "more than ", board.n, " rows in a matrix of ", board.n,
                       " columns");
    }
    absl::StatusOr<uint32_t> column = ParseMatrixRow(lines.line(), lines.number(), row, board.n);
    if (!column.ok()) return column.status();
    board.columns.push_back(*column);
  } while (lines.Next());
  if (board.columns.size() < board.n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the matrix has ", board.columns.size(), " rows, expected ", board.n, " (one per column)"));
  }
  return board;
}

void WriteMatrix(absl::Span<const uint32_t> columns,
                 absl::FunctionRef<void(absl::string_view)> sink) {
  BufferedSink out(sink);
  for (uint32_t queen_column : columns) {
    for (uint64_t column = 1; column <= columns.size(); ++column) {
      if (column > 1) out.Append(' ');
      out.Append(column == queen_column ? '1' : '0');
    }
    out.Append('\n');
  }
}

}  // namespace nqueens::client::formats
