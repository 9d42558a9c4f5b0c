// Boards and reference answers for tests, built WITHOUT the solver under test:
// random solutions by min-conflicts, random compositions, and brute-force
// (O(n^2) or exhaustive) answers to check the core against.
#ifndef NQUEENS_TESTS_CORE_TEST_BOARDS_H_
#define NQUEENS_TESTS_CORE_TEST_BOARDS_H_

#include <cstdint>
#include <functional>

#include "nqueens/board.h"

namespace nqueens::test_boards {

// A random full solution of the n x n board, by min-conflicts with restarts.
// Defined for n = 1 and n >= 4 (n = 2, 3 have none: returns an empty board).
// O(n^2) per attempt: meant for n up to a few thousand.
Columns RandomSolution(uint32_t n, uint64_t seed);

// `solution` with k of its rows, chosen at random, kept and the rest emptied
// (k <= solution.size()).
Columns RandomSubComposition(const Columns& solution, uint32_t k, uint64_t seed);

// A random composition of at most k queens: random cells are tried in turn
// and a queen is put on each one no placed queen attacks, until k are placed.
// Unlike sub-compositions of solutions these often cannot be completed.
// O(n^2): for small n.
Columns RandomComposition(uint32_t n, uint32_t k, uint64_t seed);

// A composition of the n x n board whose first row is empty but attacked in
// every cell, so that nothing extends it, while most rows stay free (2400
// rows: 1,500 or more). Built greedily: each row from the second on takes
// the safe column that attacks most new cells of row 1. O(n^2).
Columns RowOneBlocked(uint32_t n);

// Calls `visit` on every composition of the n x n board (every set of
// non-attacking queens, at most one per row, including the empty and the full
// boards). The count grows fast: meant for n <= 8.
void ForEachComposition(uint32_t n, const std::function<void(const Columns&)>& visit);

// An unsolvable composition whose proof takes the exact search far longer
// than a second (23 s and 2.3 x 10^8 nodes on two threads): an Excluded
// Diagonals instance (m = 24) in examples, read from the source tree.
Columns HardUnsolvableBoard();

// Attacking pairs by comparing every pair of queens, O(n^2).
uint64_t BruteForceAttackingPairs(const Columns& board);

// Whether `composition` extends to a full solution, by plain row-by-row
// backtracking over its empty rows. For n <= 30 (and fast only for n <= ~16).
bool BruteForceHasCompletion(const Columns& composition);

}  // namespace nqueens::test_boards

#endif  // NQUEENS_TESTS_CORE_TEST_BOARDS_H_
