// The exact search's word engine (search_engines.h): boards of at most 64
// free rows, every row's and every column's open cells in one word. A
// depth's words are its parent's narrowed by one precomputed pass per queen,
// which also counts every line's open cells and keeps the matching's pairs
// whose cells stay open, so a node's work has few branches; backtracking is
// free. Placed rows and columns keep no open cells.
//
// On a square hole of at most kDiagonalSumsMaxFreeRows free rows (the free
// rows consecutive, and the free columns too, as the Excluded Diagonals
// reduction leaves them) a second bound cuts nodes: the diagonal sums
// (DiagonalSumsFit below).
//
// A search can start below any node (a prefix of placements from the root)
// and list a node's children, so that independent subtrees can be searched
// on several threads (parallel_search.h).
#ifndef NQUEENS_EXACT_WORD_SEARCH_H_
#define NQUEENS_EXACT_WORD_SEARCH_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "base/stop_poller.h"
#include "exact/certificate.h"
#include "exact/free_board.h"
#include "exact/search_driver.h"
#include "exact/search_engines.h"

namespace nqueens::internal {

// A placement in a prefix: free row a << 8 | free column b.
using WordCell = uint16_t;

// The prefix of these queens.
std::vector<WordCell> WordCells(absl::Span<const FreeQueen> queens);

// What every search of one free board shares, built once (restarts and
// threads reuse it): the open cells at the root, and per cell the cells a
// queen there closes.
class WordBoard {
 public:
  // board.size() <= kWordSearchMaxFreeRows.
  explicit WordBoard(const FreeBoard& board);

  const FreeBoard& board() const { return board_; }
  uint32_t size() const { return size_; }
  // Whether the free rows are consecutive board rows and the free columns
  // consecutive columns.
  bool square_hole() const { return square_hole_; }

 private:
  friend class WordSearch;

  const FreeBoard& board_;
  const uint32_t size_;
  // Words per kind of line: the size rounded up to whole vectors of 4 words,
  // the rest always 0.
  const uint32_t lanes_;
  const bool square_hole_;
  // Per cell a * size + b: the open cells its diagonals held at the root,
  // the static part of a queen's damage.
  std::vector<uint32_t> diagonal_damage_;
  // Per cell, from (a * size + b) * 2 * lanes on: the cells a queen on (a, b)
  // closes in each row x (bit: column), then in each column x (bit: row):
  // its row and its column whole, and its diagonals' cells; 2 d^2 lanes words
  // (4 MiB at 64 free rows), laid out as a depth's open cells are.
  std::vector<uint64_t> closes_;
  // The open cells at the root, rows then columns; and nothing, to narrow
  // the root by.
  std::vector<uint64_t> root_open_, nothing_;
};

// A depth's words: `lanes` words per kind of line (a multiple of 4), rows'
// then columns'.
struct DepthWords {
  const uint64_t* open;   // 2 * lanes: open cells (bit: column, then bit: row)
  const uint64_t* match;  // lanes: per row, the bit of its matched column, or 0
};

// The diagonal sums bound takes boards of at most this many free rows,
// whose diagonals of each kind fit one word: bit a + b for the sum
// diagonal of free row a and free column b, bit a - b + 31 for the
// difference diagonal. On a square hole these are the board's diagonals.
inline constexpr uint32_t kDiagonalSumsMaxFreeRows = 32;

// What a placement's pass finds on the child.
struct NarrowedLines {
  // Of the rows, then of the columns: the least of the keys open cells << 16
  // plus the line's key (so a line without open cells never wins).
  uint32_t best_row, best_column;
  uint64_t matched_rows, matched_columns;  // pairs whose cells stay open
  // Diagonals holding open cells (the bits above; nothing to read on boards
  // of more than kDiagonalSumsMaxFreeRows).
  uint64_t sums, differences;
};

// A placement's pass: child open = parent open & ~closes, child match =
// parent match where its cell stays open, the counts that choose the
// child's branching line, and the diagonals of the open cells (row a's word
// shifted left by a, column b's by 31 - b). `keys` (2 * lanes) holds each line's
// (rank << 8 | index) - 2^16, modulo 2^32, in its low half, and ones in its
// high half (which vectors of 32-bit minima then ignore).
// Word by word: any processor.
NarrowedLines NarrowByWords(DepthWords parent, const uint64_t* closes, const uint64_t* keys,
                            uint32_t lanes, uint64_t* child_open, uint64_t* child_match);
#if defined(__x86_64__) && defined(__GNUC__)
#define NQUEENS_WORD_AVX2 1
// In 4-word vectors: processors with AVX2 only.
NarrowedLines NarrowByQuads(DepthWords parent, const uint64_t* closes, const uint64_t* keys,
                            uint32_t lanes, uint64_t* child_open, uint64_t* child_match);
// Whether this processor runs the search's AVX2, BMI and POPCNT code.
bool HasAvx2AndBmi();
#else
#define NQUEENS_WORD_AVX2 0
#endif

// Whether `count` distinct offsets of `set` can add up to `total`: whether
// it lies between the sums of the `count` least and the `count` greatest.
bool CanSum(uint64_t set, uint32_t count, uint32_t total);

// How a WordSearch runs: the certificate to write its tree to (null: none),
// and two switches for tests and benches.
struct WordSearchOptions {
  CertificateWriter* certificate = nullptr;
  // Runs the loop of processors without AVX2 and BMI on any processor.
  bool word_by_word_loop = false;
  // Leaves out the diagonal sums bound, so that the tree is the other
  // engines'.
  bool without_diagonal_sums = false;
};

class WordSearch {
 public:
  WordSearch(const WordBoard& board, StopPoller& stop, uint64_t tie_seed,
             const WordSearchOptions& options = {});

  // Searches the subtree below `prefix` (each cell one of its parent's
  // children, in order from the root); outcome.nodes counts the nodes below
  // it, outcome.placement is the whole board's.
  SearchOutcome Search(absl::Span<const WordCell> prefix, NodeAllowance& allowance);
  // The children of the node at `prefix`, in the order the search tries them:
  // none at a dead end or a full placement.
  std::vector<WordCell> Children(absl::Span<const WordCell> prefix);

 private:
  // One depth of the path. The open cells of free row a are `open[a]` (bit
  // b: free column b), of free column b `open[lanes + b]` (bit a); the
  // matching of unplaced rows to open columns (Hall's condition) is inherited
  // from the parent, minus the pairs the last queen closed: row a's column
  // is the bit `match[a]`, column b's row `row_of_column[b]` (where b is
  // matched).
  struct Depth {
    uint64_t rows = 0, columns = 0;  // unplaced
    uint64_t matched_rows = 0, matched_columns = 0;
    uint32_t best_row = 0, best_column = 0;  // NarrowedLines' keys
    uint64_t sums = 0, differences = 0;      // NarrowedLines'
    // The sums of the unplaced rows' and columns' numbers a and b.
    uint32_t row_numbers = 0, column_numbers = 0;
    uint64_t* open;
    uint64_t* match;
    std::array<uint8_t, 64> row_of_column;
  };

  // The policy the driver runs (search_driver.h), on the search's depths;
  // kVector: with the vector pass for processors with AVX2 and BMI.
  template <bool kVector>
  class Steps;

  // Places `prefix` from the root.
  void Descend(absl::Span<const WordCell> prefix);
  // Searches below the current depth, with everything the loop calls inlined
  // into it (flatten), so that the processor's extensions apply to all of it.
  SearchOutcome SearchWordByWord(NodeAllowance& allowance);
#if NQUEENS_WORD_AVX2
  SearchOutcome SearchWithAvx2(NodeAllowance& allowance);
#endif
  // The cells to try at depth k, in order; 0 at a dead end.
  template <bool kVector>
  uint32_t BranchCells(uint32_t k, uint32_t* cells);
  // The diagonal sums bound, on a square hole: the queens still to place
  // stand on distinct sum diagonals and distinct difference diagonals that
  // hold open cells, and since each takes one unplaced row and column, their
  // offsets add up to the unplaced rows' numbers plus (minus) the columns'.
  // False when no choice of those diagonals gives that total.
  template <bool kBmi2>
  static bool DiagonalSumsFit(const Depth& depth);
  // The cells of the unplaced row or column with the fewest open cells (ties
  // by rank, a row on a tie), in the order to try them.
  uint32_t ListCandidates(const Depth& depth, bool by_row, uint32_t line, uint32_t* cells) const;
  // Depth k + 1: depth k with a queen on (a, b).
  template <bool kVector>
  void Place(uint32_t k, uint32_t a, uint32_t b);
  // Keeps the pass's findings in depth k.
  void Narrowed(uint32_t k, const NarrowedLines& lines);
  bool RepairMatching(Depth& depth, uint64_t& hall_rows) const;
  // An augmenting path from unmatched row `a`, matched along; false when
  // there is none, with `seen` the columns reached.
  bool Augment(Depth& depth, uint32_t a, uint64_t& seen) const;
  // Matches the path Augment found (layers of rows, the last with `column`
  // open and free).
  void Flip(Depth& depth, const std::array<uint64_t, 64>& layers, uint32_t last,
            uint64_t column) const;
  // Pairs `row` with the column whose bit is `column`.
  static void Match(Depth& depth, uint32_t row, uint64_t column);

  const WordBoard& board_;
  const uint32_t size_, lanes_;
  CertificateWriter* const certificate_;
  const bool vector_;         // whether to run SearchWithAvx2
  const bool diagonal_sums_;  // whether to cut by DiagonalSumsFit
  // rank << 8 | index, the ranks of line_ranks.h: the other engines'
  // tie-breaks, drawn in the same order from the same seed.
  std::array<uint32_t, 64> row_rank_, column_rank_;
  std::vector<uint64_t> keys_;   // the passes', from the ranks
  std::vector<uint64_t> words_;  // every depth's open cells and matching
  std::vector<Depth> path_;
  uint32_t depth_ = 0;  // of the current node
  SearchDriver<uint32_t> driver_;
};

}  // namespace nqueens::internal

#endif  // NQUEENS_EXACT_WORD_SEARCH_H_
