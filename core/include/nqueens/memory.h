// The most memory each call of the core takes, so that a caller can budget
// for a call before it runs: the server reserves it from its memory budget
// before it allocates anything that grows with n, and adds what its own
// wire formats cost.
//
// Each figure bounds the growth of the process's resident size, from before
// the caller builds the call's input board to the call's peak, with the
// default PipelineParams. It includes the input board (Complete takes it,
// Validate reads the caller's) and the board the call returns; nothing the
// caller makes from the result afterwards. The model behind them is in
// core/src/solve/memory.cc and each method's file, measured peaks in docs/constants.md
// (CompletePeakBytes); tests/core/memory_test.cc checks that the measured
// peaks stay below these and above half of them.
#ifndef NQUEENS_MEMORY_H_
#define NQUEENS_MEMORY_H_

#include <cstdint>

#include "nqueens/solver.h"

namespace nqueens {

// The part of a call's peak that does not grow with n: stacks and small
// tables (8 MiB) and the exact search's free board, at most 40 bytes per
// cell of its 1,024 x 1,024 free rows and columns whatever n is. Every
// figure below is at most this plus a part linear in n. A caller that runs
// calls on a fixed set of threads can hold it once per thread.
inline constexpr uint64_t kCallFixedPeakBytes = uint64_t{48} << 20;

// Complete on an n-row board that holds `queens_given` queens, by `method`:
// the pipeline takes about 5.8 bytes a row (the board and its bits, 4.875,
// and blocks 2-5's numberings of the lines, 0.94), plus up to 16 MB for
// block 1's lists on boards of up to 2^21 rows; MIN_CONFLICTS, which lists the free rows and their
// columns, 13.5 bytes a row from the empty board, 9.5 from a half-filled one. With 1,024 free rows
// or fewer the exact search adds up to 40 MB, whatever n is.
uint64_t CompletePeakBytes(uint64_t n, uint64_t queens_given, CompleteMethod method);
// The largest of those over every method.
uint64_t CompletePeakBytes(uint64_t n, uint64_t queens_given);

// Complete on an n-row board whose queens are not known yet (a stream's
// header): the largest CompletePeakBytes(n, k) over every k.
uint64_t CompletePeakBytes(uint64_t n);

// Solve(n, method) with options.symmetry = `symmetry`: RANDOM is Complete
// from the empty board; CONSTRUCTIVE only writes the board it returns (4
// bytes a row); each other method states its arrays beside them
// (core/src/methods/, its *PeakBytes function): GENETIC, the largest, holds
// its population (genetic_population boards, 300 bytes a row with the
// default 75). A symmetry other than 0 adds the image board (4 bytes a row)
// next to the result.
//
// Complete with CompleteMethod::kMinConflicts stays within
// CompletePeakBytes(n, queens_given): it holds the same arrays as the
// pipeline's first block (the board, a bit per line, the free rows and
// columns), and nothing like the exact search's.
uint64_t SolvePeakBytes(uint64_t n, SolveMethod method, uint32_t symmetry = 0);

// Validate on an n-row board whose queens attack along few lines: the board
// and 5 bits a row. Every line holding two queens or more takes a hash-table
// entry, so a board with many such lines takes far more than a solution
// (docs/constants.md, ValidatePeakBytes). Validate reports the exact count of
// attacking pairs, which needs those counts; this estimate does not cover such
// boards.
uint64_t ValidatePeakBytes(uint64_t n);

// The free rows up to which the estimates above cover the exact search.
inline constexpr uint32_t kExactFreeRowsInEstimates = 1024;

// What the exact search on `free_rows` free rows takes beyond the estimates
// above: 0 up to kExactFreeRowsInEstimates, then two bits a cell of the free
// board and about 64 bytes a free row (at most 1 GiB at 65,536, the most
// PipelineParams::exact_max_free_rows allows). CallOptions::
// reserve_memory is asked for it.
uint64_t ExactSearchBytesBeyondEstimate(uint64_t free_rows);

}  // namespace nqueens

#endif  // NQUEENS_MEMORY_H_
