#include "line_ranks.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace nqueens::internal {
namespace {

// The mean, over the open cells of row (or column) x, of the other open
// cells on their diagonals.
uint32_t MeanDiagonalCells(const FreeBoard& board, bool rows, uint32_t x) {
  uint64_t cells = 0, diagonal_cells = 0;
  for (uint32_t y = 0; y < board.size(); ++y) {
    const uint32_t a = rows ? x : y, b = rows ? y : x;
    if (!board.open().Test(a, b)) continue;
    ++cells;
    for (uint32_t line : board.LinesThrough(a, b)) {
      if (line != kNone) diagonal_cells += board.CellsOf(line).size() - 1;
    }
  }
  return cells == 0 ? 0 : static_cast<uint32_t>(diagonal_cells / cells);
}

}  // namespace

std::vector<uint32_t> DrawLineRanks(const FreeBoard& board, bool rows, Rng& rng) {
  const uint32_t size = board.size();
  std::vector<uint32_t> random_ranks(size);
  std::iota(random_ranks.begin(), random_ranks.end(), 0u);
  rng.Shuffle(random_ranks.begin(), random_ranks.end());
  if (!board.has_lines()) return random_ranks;
  // Busiest first (a key's high half is the complement of the mean), ties
  // by the random rank.
  std::vector<uint64_t> order(size);
  for (uint32_t x = 0; x < size; ++x) {
    order[x] = uint64_t{~MeanDiagonalCells(board, rows, x)} << 32 | random_ranks[x];
  }
  std::vector<uint32_t> lines(size);
  std::iota(lines.begin(), lines.end(), 0u);
  std::sort(lines.begin(), lines.end(),
            [&](uint32_t x, uint32_t y) { return order[x] < order[y]; });
  std::vector<uint32_t> ranks(size);
  for (uint32_t rank = 0; rank < size; ++rank) ranks[lines[rank]] = rank;
  return ranks;
}

}  // namespace nqueens::internal
