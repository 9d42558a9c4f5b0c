// Hall's condition as a matching, on a board of at most 64 free rows: the
// unplaced rows can all take a queen only if each can be matched to a
// column of its own through its open cells, which by Hall's theorem fails
// exactly when some m of them have their open cells in fewer than m
// columns. A `packed` subtree's dead leaves carry no reason
// (docs/reference/certificates.md), and this is the one a checker cannot
// see in O(d): it runs at about a third of all leaves, so a greedy pass
// matches what it can and augmenting paths, searched a word of columns at
// a time, match the rest.
#ifndef NQUEENS_CHECKER_ROW_MATCHING_H_
#define NQUEENS_CHECKER_ROW_MATCHING_H_

#include <cstdint>

namespace nqueens::checker {

// Rows and columns are free indices below 64; open[a] holds row a's open
// columns for each row a of `rows` (only unplaced columns have open cells,
// so the columns matched are unplaced ones). True when each row of `rows`
// matches a column of its own; else false, and *hall_rows the rows that
// the failed search for an augmenting path reached, whose open cells lie in
// fewer columns than they are many.
bool RowsMatch(uint64_t rows, const uint64_t open[64], uint64_t* hall_rows);

}  // namespace nqueens::checker

#endif  // NQUEENS_CHECKER_ROW_MATCHING_H_
