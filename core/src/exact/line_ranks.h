// The order that breaks ties between lines in the exact search: when rows
// or columns have equally few open cells, the search branches on the one of
// lowest rank. All engines draw the same ranks from the same seed, so they
// visit the same tree (search_engines.h).
#ifndef NQUEENS_EXACT_LINE_RANKS_H_
#define NQUEENS_EXACT_LINE_RANKS_H_

#include <cstdint>
#include <vector>

#include "base/rng.h"
#include "exact/free_board.h"

namespace nqueens::internal {

// Per row (or per column) of `board`, its rank: first the lines whose open
// cells lie on the busiest diagonals (the mean, over the line's open cells,
// of the other open cells on their two diagonals at the root), known when
// the board lists its diagonals; then a random order drawn from `rng`.
// Branching first where a queen closes the most prunes sooner, with fewer
// nodes on Excluded Diagonals boards (docs/hard-instances-log.md, "Line
// ranks").
std::vector<uint32_t> DrawLineRanks(const FreeBoard& board, bool rows, Rng& rng);

// The ranks of both kinds of lines, as every engine draws them from
// `tie_seed`: the rows' first.
struct BoardRanks {
  std::vector<uint32_t> rows, columns;
};
BoardRanks DrawBoardRanks(const FreeBoard& board, uint64_t tie_seed);

}  // namespace nqueens::internal

#endif  // NQUEENS_EXACT_LINE_RANKS_H_
