// How counting and enumerating cut a search into parts: for the threads of
// one call, and into the part_count disjoint parts of a PartSelector
// (nqueens/parts.h) that other machines may search. Both splits depend only
// on the board and the part count, so every server cuts the same way; the
// whole is documented in docs/parts.md, and tests/core/count_parts_test.cc
// fixes it.
#ifndef NQUEENS_COUNT_PART_SPLIT_H_
#define NQUEENS_COUNT_PART_SPLIT_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/stop_poller.h"
#include "count/residual_search.h"
#include "nqueens/parts.h"

namespace nqueens::internal {

// A composition's search is cut at the first level where it has enough
// prefixes: kThreadParts for any thread count a server has, and
// kPrefixesPerPart for each of part_count parts (so that the strided
// selection below balances them), at most kMaxPrefixes.
inline constexpr size_t kThreadParts = 256;
inline constexpr size_t kPrefixesPerPart = 16;
inline constexpr size_t kMaxPrefixes = size_t{1} << 16;

inline size_t PrefixesWanted(const PartSelector& part) {
  return std::clamp<size_t>(kPrefixesPerPart * part.count, kThreadParts, kMaxPrefixes);
}

// Every placement of the first levels of the residual, in the search's
// order, down to the first level with `wanted` of them (but short of the
// last level). Placements that lead nowhere are left out.
template <typename G>
std::vector<std::vector<uint64_t>> Prefixes(const G& geometry, size_t levels, size_t wanted) {
  const StopCondition never;
  StopPoller stop(never);
  std::vector<std::vector<uint64_t>> prefixes = {{}};
  while (prefixes.size() < wanted && prefixes.front().size() + 1 < levels) {
    std::vector<std::vector<uint64_t>> longer;
    for (const std::vector<uint64_t>& prefix : prefixes) {
      const size_t depth = prefix.size() + 1;
      Dfs<G> next(geometry, depth, prefix);
      next.Search(
          [&](const uint64_t* placed) {
            longer.emplace_back(placed, placed + depth);
            return true;
          },
          [](uint64_t) {}, stop);
    }
    if (longer.empty()) break;  // no completion: the shorter prefixes count 0
    prefixes = std::move(longer);
  }
  return prefixes;
}

// The pieces of `part`: those whose position in `pieces` is part.index
// modulo part.count. Neighbours in the search's order cost alike, so dealing
// them out in turn balances the parts.
template <typename Piece>
std::vector<Piece> PartOf(const std::vector<Piece>& pieces, const PartSelector& part) {
  std::vector<Piece> kept;
  kept.reserve(pieces.size() / part.count + 1);
  for (size_t i = part.index; i < pieces.size(); i += part.count) kept.push_back(pieces[i]);
  return kept;
}

}  // namespace nqueens::internal

#endif  // NQUEENS_COUNT_PART_SPLIT_H_
