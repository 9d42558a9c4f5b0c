// The peak-memory model behind nqueens/memory.h: each call's peak as the sum
// of the arrays it holds at once, each sized as its allocator sizes it. The
// peaks it was checked against: docs/constants.md (CompletePeakBytes);
// tests/core/memory_test.cc measures them at 2^22 rows.
#include "nqueens/memory.h"

#include <algorithm>
#include <cstdint>

#include "base/peak_bytes.h"
#include "exact/free_board.h"
#include "nqueens/board.h"
#include "nqueens/params.h"
#include "pipeline/base_levels.h"
#include "pipeline/free_lines.h"
#include "solve/solve_methods.h"

namespace nqueens {
namespace {

using internal::Bits;
using internal::Board;
using internal::HugeArray;
using internal::kFixedPeakBytes;
using internal::LineBits;

// Rows left free at baseLevel2 (s2) and at baseLevel3 (s3). Boards above
// kMaxBoardSize are refused before anything is allocated.
struct RowsLeft {
  uint64_t s2, s3;
};
RowsLeft RowsLeftAtBaseLevels(uint64_t n) {
  const uint32_t rows = static_cast<uint32_t>(std::min(n, kMaxBoardSize));
  const internal::BaseLevels levels = internal::ComputeBaseLevels(rows, PipelineParams{});
  return {rows - levels.level2, rows - levels.level3};
}

// BoardState: the board it owns, its line bits, the used rows and the given
// rows.
uint64_t BoardState(uint64_t n) { return Board(n) + LineBits(n) + 2 * Bits(n + 1); }

// Lists of the free rows and the free columns.
uint64_t FreeLineLists(uint64_t free_rows) { return 2 * HugeArray(4 * free_rows); }

// Block 1 (free_lines.h): the lists of the free lines, every one on boards
// that pass in one chunk (below pairing_chunks_from_n), else only once fewer
// than n / kListBelow are free; the chunks in the threads' hands are a few
// thousand lines.
uint64_t RandomPairing(uint64_t n, uint64_t free_rows) {
  const uint64_t one_chunk_rows = PipelineParams{}.pairing_chunks_from_n;
  return FreeLineLists(
      std::min(free_rows, std::max(n / internal::FreeLines::kListBelow, one_chunk_rows)));
}

// Complete with MIN_CONFLICTS beside the board state: its diagonal bits, a
// column bit each, and the free rows and their columns listed
// (methods/min_conflicts.cc).
uint64_t MinConflictsCompletion(uint64_t n, uint64_t free_rows) {
  return 2 * Bits(2 * n + 1) + Bits(n + 1) + FreeLineLists(free_rows);
}

// DenseNumbering over `universe` values: a bit each and a 4-byte rank per
// 64 (sub_board.h).
uint64_t Numbering(uint64_t universe) {
  const uint64_t words = universe / 64 + 1;
  return HugeArray(8 * words) + HugeArray(4 * words);
}

// Blocks 2-5 besides the board state and the lists: the numbering of the
// columns over the whole board (block 2), and the projected boards. Block
// 2's holds s2 rows (n - baseLevel2), as bits, in two copies. Block 4's s3
// (n - baseLevel3) rows keep per-cell line indices (8 s3^2 bytes) and line
// lists, 32 s3^2 bytes in all, above what was measured; before the lists,
// the diagonals of their free cells are numbered in one ordered map at a
// time, at most s3^2 entries of at most 32 bytes: 40 s3^2 bytes here
// (docs/constants.md, Finishing).
uint64_t Finishing(uint64_t n) {
  const auto [s2, s3] = RowsLeftAtBaseLevels(n);
  return Numbering(n + 1) + 2 * (s2 * s2 / 8 + s2 * 8) + 40 * s3 * s3;
}

// The exact search on d free rows: its own line bits, its free board up to
// 1,024 free rows (at most about 40 d^2 bytes, exact_search.h, above what was
// measured: docs/constants.md, ExactSearch; beyond,
// ExactSearchBytesBeyondEstimate) and the copy of the board it returns.
uint64_t ExactSearch(uint64_t n, uint64_t d) {
  const uint64_t free_board = d <= kExactFreeRowsInEstimates ? 40 * d * d : 0;
  return LineBits(n) + free_board + Board(n);
}

// Up to there the trail engine searches, on the free board's line lists.
static_assert(kExactFreeRowsInEstimates == internal::kLineListsMaxFreeRows);

static_assert(kFixedPeakBytes +
                      40 * uint64_t{kExactFreeRowsInEstimates} * kExactFreeRowsInEstimates <=
                  kCallFixedPeakBytes,
              "nqueens/memory.h promises this bound");

}  // namespace

uint64_t CompletePeakBytes(uint64_t n, uint64_t queens_given, CompleteMethod method) {
  const uint64_t free_rows = n - std::min(n, queens_given);
  uint64_t peak = ExactSearch(n, free_rows);
  if (method == CompleteMethod::kMinConflicts) {
    peak = std::max(peak, MinConflictsCompletion(n, free_rows));
  } else if (method == CompleteMethod::kPipeline) {
    // Blocks 2-5 hold the lists of the rows left at baseLevel2.
    peak =
        std::max({peak, RandomPairing(n, free_rows),
                  FreeLineLists(std::min(free_rows, RowsLeftAtBaseLevels(n).s2)) + Finishing(n)});
    // An input that lies in the construction gets a copy of its image.
    if (queens_given > 0) peak = std::max(peak, Board(n));
  }
  return kFixedPeakBytes + BoardState(n) + peak;
}

uint64_t CompletePeakBytes(uint64_t n, uint64_t queens_given) {
  uint64_t peak = 0;
  for (const MethodInfo<CompleteMethod>& method : CompleteMethods()) {
    peak = std::max(peak, CompletePeakBytes(n, queens_given, method.method));
  }
  return peak;
}

uint64_t CompletePeakBytes(uint64_t n) {
  // The lists are longest on the empty board, the exact search's free board
  // biggest at its limit, and the image needs a queen.
  const uint64_t most_exact_free_rows = std::min<uint64_t>(n, kExactFreeRowsInEstimates);
  return std::max({CompletePeakBytes(n, 0), CompletePeakBytes(n, n - most_exact_free_rows),
                   CompletePeakBytes(n, 1)});
}

uint64_t SolvePeakBytes(uint64_t n, SolveMethod method, uint32_t symmetry) {
  // The image is made while the result is still held.
  const uint64_t image = symmetry != 0 ? Board(n) : 0;
  const internal::SolveMethodEntry* entry = internal::FindSolveMethodEntry(method);
  // A method outside the enum is refused before anything is allocated.
  if (entry == nullptr) return kFixedPeakBytes;
  return entry->peak_bytes(n) + image;
}

uint64_t ValidatePeakBytes(uint64_t n) { return kFixedPeakBytes + Board(n) + LineBits(n); }

uint64_t ExactSearchBytesBeyondEstimate(uint64_t free_rows) {
  if (free_rows <= kExactFreeRowsInEstimates) return 0;
  // The free board's open cells and the large engine's copy, each row in
  // whole words; its per-row arrays and stacks.
  const uint64_t words_per_row = (free_rows + 63) / 64;
  return uint64_t{2} * 8 * words_per_row * free_rows + 64 * free_rows;
}

}  // namespace nqueens
