#include "exact/line_ranks.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace nqueens::internal {

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
    order[x] = uint64_t{~board.DiagonalLoad(rows, x)} << 32 | random_ranks[x];
  }
  std::vector<uint32_t> lines(size);
  std::iota(lines.begin(), lines.end(), 0u);
  std::sort(lines.begin(), lines.end(),
            [&](uint32_t x, uint32_t y) { return order[x] < order[y]; });
  std::vector<uint32_t> ranks(size);
  for (uint32_t rank = 0; rank < size; ++rank) ranks[lines[rank]] = rank;
  return ranks;
}

BoardRanks DrawBoardRanks(const FreeBoard& board, uint64_t tie_seed) {
  Rng rng(tie_seed);
  BoardRanks ranks;
  ranks.rows = DrawLineRanks(board, true, rng);
  ranks.columns = DrawLineRanks(board, false, rng);
  return ranks;
}

}  // namespace nqueens::internal
