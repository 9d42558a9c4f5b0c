// The exact search's word engine (search_engines.h): boards of at most 64
// free rows, every row's and every column's open cells in one word. A
// depth's state is copied from its parent's and then narrowed, so
// backtracking is free. Cells on placed rows and columns are not cleared: the
// masks of unplaced rows and columns are ANDed in where counts are taken.
//
// A search can start below any node (a prefix of placements from the root)
// and list a node's children, so that independent subtrees can be searched
// on several threads (parallel_search.h).
#ifndef NQUEENS_SRC_WORD_SEARCH_H_
#define NQUEENS_SRC_WORD_SEARCH_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "certificate.h"
#include "free_board.h"
#include "search_engines.h"
#include "stop_poller.h"

namespace nqueens::internal {

// A placement in a prefix: free row a << 8 | free column b.
using WordCell = uint16_t;

// What every search of one free board shares, built once (restarts and
// threads reuse it): the open cells at the root, and per cell the cells its
// diagonals hold.
class WordBoard {
 public:
  // board.size() <= kWordSearchMaxFreeRows.
  explicit WordBoard(const FreeBoard& board);

  const FreeBoard& board() const { return board_; }
  uint32_t size() const { return size_; }

 private:
  friend class WordSearch;

  const FreeBoard& board_;
  const uint32_t size_;
  // Per cell a * size + b: the open cells its diagonals held at the root,
  // the static part of a queen's damage.
  std::vector<uint32_t> diagonal_damage_;
  // Per cell: the rows its diagonals cross at open cells of the root (bit:
  // row).
  std::vector<uint64_t> diagonal_rows_;
  // Per cell, from (a * size + b) * 2 * size on: the cells of each row x
  // (bit: column), then of each column x (bit: row), on the diagonals
  // through cell (a, b); 2 d^3 words (4 MiB at 64 free rows), laid out as a
  // depth's open cells are, so that a placement is one pass of ANDs.
  std::vector<uint64_t> attacks_;
  // The open cells at the root, rows then columns.
  std::vector<uint64_t> root_open_;
};

// to[i] = from[i] & ~removed[i] for i < count, an even count: a placement's
// pass over a depth's words.
using AndNotFunction = void (*)(const uint64_t* from, const uint64_t* removed, uint32_t count,
                                uint64_t* to);
// In pairs of words: the SSE2 every x86-64 has.
void AndNotByPairs(const uint64_t* from, const uint64_t* removed, uint32_t count, uint64_t* to);
#if defined(__x86_64__) && defined(__GNUC__)
#define NQUEENS_WORD_QUADS 1
// In 4-word vectors: processors with AVX2 only.
void AndNotByQuads(const uint64_t* from, const uint64_t* removed, uint32_t count, uint64_t* to);
#else
#define NQUEENS_WORD_QUADS 0
#endif
// The fastest of them this processor runs, asked once per search.
AndNotFunction FastestAndNot();

// Nodes a search may still visit, shared by the searches of several threads
// (`shared` set) or a search's own.
class NodeAllowance {
 public:
  explicit NodeAllowance(uint64_t budget, std::atomic<uint64_t>* shared = nullptr)
      : budget_(budget), shared_(shared), granted_(shared == nullptr ? budget : 0) {}

  // Whether one more node may be visited (counted if so).
  bool Take() {
    if (used_ == granted_ && !Grant()) return false;
    ++used_;
    return true;
  }

 private:
  // Nodes taken from a shared budget at a time: few enough to spend the
  // budget evenly, many enough to keep the atomic cold.
  static constexpr uint64_t kGrant = 1024;
  bool Grant();

  const uint64_t budget_;
  std::atomic<uint64_t>* const shared_;
  uint64_t granted_, used_ = 0;
};

class WordSearch {
 public:
  WordSearch(const WordBoard& board, SearchMode mode, StopPoller& stop, uint64_t tie_seed);

  // Searches the subtree below `prefix` (each cell one of its parent's
  // children, in order from the root); outcome.nodes counts the nodes below
  // it, outcome.placement is the whole board's.
  SearchOutcome Search(absl::Span<const WordCell> prefix, NodeAllowance& allowance);
  // The children of the node at `prefix`, in the order the search tries them:
  // none at a dead end or a full placement.
  std::vector<WordCell> Children(absl::Span<const WordCell> prefix);
  // Searches write their tree to `certificate` (null: none) from now on.
  void WriteCertificate(CertificateWriter* certificate) { certificate_ = certificate; }

 private:
  // One depth of the path. The open cells of free row a are `row_open[a]`
  // (bit b: free column b), of free column b `column_open[b]` (bit a); the
  // matching of unplaced rows to open columns (Hall's condition) is inherited
  // from the parent, minus the pairs the last queen closed.
  struct Depth {
    uint64_t rows = 0, columns = 0;                  // unplaced
    uint64_t matched_rows = 0, matched_columns = 0;  // in the matching
    uint64_t* row_open;
    uint64_t* column_open;
    uint8_t* column_of_row;
    uint8_t* row_of_column;
  };

  // Counts of open cells per unplaced line, and the line to branch on.
  struct Branching {
    std::array<uint8_t, 64> row_cells, column_cells;
    uint32_t line;
    bool by_row;
  };

  // Places `prefix` from the root; its depth.
  uint32_t Descend(absl::Span<const WordCell> prefix);
  // Explores depth `k`, `share` of the whole tree (by the estimate of
  // SearchOutcome::explored). False to unwind the whole search (a solution
  // found in kFirstSolution mode, the allowance spent or a stop).
  bool Visit(uint32_t k, double share, NodeAllowance& allowance, SearchOutcome& outcome);
  // The cells to try at depth k, in order; 0 at a dead end.
  uint32_t BranchCells(uint32_t k, std::array<uint32_t, 64>& cells);
  // The unplaced row or column with the fewest open cells (ties by rank);
  // false at a dead end, a line without open cells.
  bool ChooseLine(const Depth& depth, Branching& branching) const;
  // The cells of the branching line, in the order to try them.
  uint32_t ListCandidates(const Depth& depth, const Branching& branching,
                          std::array<uint32_t, 64>& cells) const;
  // Depth k + 1: depth k with a queen on (a, b).
  void Place(uint32_t k, uint32_t a, uint32_t b);
  bool RepairMatching(Depth& depth, uint64_t& hall_rows) const;
  bool Augment(Depth& depth, uint32_t a, uint64_t& seen) const;
  static void Match(Depth& depth, uint32_t row, uint32_t column);
  static void Unmatch(Depth& depth, uint32_t row, uint32_t column);

  const WordBoard& board_;
  const uint32_t size_;
  const SearchMode mode_;
  StopPoller& stop_;
  const AndNotFunction and_not_;
  // rank << 8 | index, the ranks a random permutation per kind of line: the
  // trail engine's tie-breaks, drawn in the same order from the same seed.
  std::array<uint32_t, 64> row_rank_, column_rank_;
  std::vector<uint64_t> masks_;
  std::vector<uint8_t> matchings_;
  std::vector<Depth> path_;
  std::vector<uint32_t> placement_;  // per free row, along the path
  CertificateWriter* certificate_ = nullptr;
};

}  // namespace nqueens::internal

#endif  // NQUEENS_SRC_WORD_SEARCH_H_
