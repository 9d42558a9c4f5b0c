#include "nqueens/board.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/huge_pages.h"

namespace nqueens {

absl::Status CheckBoardSize(uint64_t n) {
  if (n == 0 || n > kMaxBoardSize) {
    // Above kMaxBoardSize no build of this code could answer: the request is
    // at fault, not a limit someone chose.
    return absl::InvalidArgumentError(absl::StrCat(
        "n must be 1..", kMaxBoardSize, " (the largest board this build supports), not ", n));
  }
  return absl::OkStatus();
}

absl::Status CheckDenseShape(uint64_t n, absl::Span<const uint32_t> columns) {
  if (absl::Status status = CheckBoardSize(n); !status.ok()) return status;
  if (columns.size() != n) {
    return absl::InvalidArgumentError(
        absl::StrCat("the board has ", columns.size(), " rows, but n is ", n));
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] > n) {
      return absl::InvalidArgumentError(absl::StrCat("row ", i + 1, " has column ", columns[i],
                                                     ", but the board has only ", n, " columns"));
    }
  }
  return absl::OkStatus();
}

Columns MakeEmptyBoard(uint64_t n) {
  Columns board = ReserveBoard(n);
  board.assign(n, kEmptyRow);
  return board;
}

Columns ReserveBoard(uint64_t capacity) {
  Columns board;
  internal::ReserveHuge(board, capacity);
  return board;
}

absl::StatusOr<Columns> DenseFromQueens(uint64_t n, absl::Span<const Queen> queens) {
  if (absl::Status status = CheckBoardSize(n); !status.ok()) return status;
  Columns columns = MakeEmptyBoard(n);
  for (const Queen& queen : queens) {
    if (queen.row < 1 || queen.row > n || queen.column < 1 || queen.column > n) {
      return absl::InvalidArgumentError(
          absl::StrCat("the queen at (row ", queen.row, ", column ", queen.column,
                       ") is off the board: rows and columns run from 1 to ", n));
    }
    uint32_t& column = columns[queen.row - 1];
    if (column != kEmptyRow) {
      return absl::InvalidArgumentError(absl::StrCat("row ", queen.row, " is given twice (columns ",
                                                     column, " and ", queen.column, ")"));
    }
    column = queen.column;
  }
  return columns;
}

std::vector<Queen> QueensFromDense(absl::Span<const uint32_t> columns) {
  std::vector<Queen> queens;
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] != kEmptyRow) queens.push_back({static_cast<uint32_t>(i + 1), columns[i]});
  }
  return queens;
}

}  // namespace nqueens
