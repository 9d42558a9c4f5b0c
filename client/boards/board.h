// The CLI's board as it was given: dense or sparse (board_io.h reads and
// writes it).
#ifndef NQUEENS_CLIENT_BOARDS_BOARD_H_
#define NQUEENS_CLIENT_BOARDS_BOARD_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "nqueens/board.h"

namespace nqueens::client {

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

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_BOARDS_BOARD_H_
