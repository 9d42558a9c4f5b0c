#include "client/boards/board.h"

#include <algorithm>
#include <utility>

namespace nqueens::client {

uint64_t Board::queen_count() const {
  if (is_sparse()) return queens.size();
  return static_cast<uint64_t>(std::count_if(columns.begin(), columns.end(),
                                             [](uint32_t column) { return column != kEmptyRow; }));
}

absl::Status MakeDense(Board& board) {
  if (!board.is_sparse()) return absl::OkStatus();
  absl::StatusOr<Columns> columns = DenseFromQueens(board.n, board.queens);
  if (!columns.ok()) return columns.status();
  board.columns = *std::move(columns);
  board.queens = {};
  return absl::OkStatus();
}

void MakeSparse(Board& board) {
  if (board.is_sparse()) return;
  board.queens = QueensFromDense(board.columns);
  board.columns = {};
}

}  // namespace nqueens::client
