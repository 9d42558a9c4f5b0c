// The sparse list: n on the first line, then one "row column" per queen.
#include <algorithm>
#include <optional>

#include "client/boards/board_formats.h"

namespace nqueens::client::formats {
namespace {

absl::StatusOr<uint64_t> ParseSparseSize(const ContentLines& lines) {
  absl::string_view tokens[1];
  const std::optional<uint64_t> n =
      SplitTokens(lines.line(), tokens, 1) == 1 ? ParseNumber(tokens[0]) : std::nullopt;
  if (!n) {
    return LineError(lines.number(), "expected the board size n alone on the first line");
  }
  if (*n == 0) return LineError(lines.number(), "n must be at least 1");
  if (*n > kMaxBoardSize) {
    return LineError(lines.number(), "n = ", tokens[0], " is larger than the largest board, ",
                     kMaxBoardSize);
  }
  return *n;
}

absl::StatusOr<Queen> ParseSparseQueen(const ContentLines& lines, uint64_t n) {
  absl::string_view tokens[2];
  if (SplitTokens(lines.line(), tokens, 2) != 2) {
    return LineError(lines.number(), "expected \"row column\"");
  }
  uint64_t values[2];
  const char* names[2] = {"row", "column"};
  for (int i = 0; i < 2; ++i) {
    const std::optional<uint64_t> value = ParseNumber(tokens[i]);
    if (!value) return NotANumber(lines.number(), tokens[i]);
    if (*value < 1 || *value > n) {
      return LineError(lines.number(), names[i], " ", tokens[i], " is outside 1..", n);
    }
    values[i] = *value;
  }
  return Queen{static_cast<uint32_t>(values[0]), static_cast<uint32_t>(values[1])};
}

// The error for a row given twice in a sparse file, naming the first two
// lines that give it; looked up only when the error is found.
absl::Status RepeatedRow(absl::string_view text, uint32_t row) {
  ContentLines lines(text);
  lines.Next();  // n
  uint64_t first_line = 0;
  while (lines.Next()) {
    absl::string_view tokens[1];
    SplitTokens(lines.line(), tokens, 1);
    if (ParseNumber(tokens[0]) != row) continue;
    if (first_line != 0) {
      return LineError(lines.number(), "row ", row, " already has a queen (line ", first_line, ")");
    }
    first_line = lines.number();
  }
  return absl::InternalError("repeated row not found");
}

}  // namespace

absl::StatusOr<Board> ParseSparse(absl::string_view text) {
  ContentLines lines(text);
  if (!lines.Next()) return NoBoard();
  Board board;
  absl::StatusOr<uint64_t> n = ParseSparseSize(lines);
  if (!n.ok()) return n.status();
  board.n = *n;
  while (lines.Next()) {
    absl::StatusOr<Queen> queen = ParseSparseQueen(lines, board.n);
    if (!queen.ok()) return queen.status();
    board.queens.push_back(*queen);
  }
  const auto by_row = [](const Queen& a, const Queen& b) { return a.row < b.row; };
  if (!std::is_sorted(board.queens.begin(), board.queens.end(), by_row)) {
    std::sort(board.queens.begin(), board.queens.end(), by_row);
  }
  const auto repeat =
      std::adjacent_find(board.queens.begin(), board.queens.end(),
                         [](const Queen& a, const Queen& b) { return a.row == b.row; });
  if (repeat != board.queens.end()) return RepeatedRow(text, repeat->row);
  return board;
}

void WriteSparse(absl::Span<const uint32_t> columns,
                 absl::FunctionRef<void(absl::string_view)> sink) {
  BufferedSink out(sink);
  out.AppendNumber(columns.size());
  out.Append('\n');
  for (size_t row = 0; row < columns.size(); ++row) {
    if (columns[row] == kEmptyRow) continue;
    out.AppendNumber(row + 1);
    out.Append(' ');
    out.AppendNumber(columns[row]);
    out.Append('\n');
  }
}

}  // namespace nqueens::client::formats
