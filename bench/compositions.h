// The benchmarks' inputs: compositions drawn from solutions (Table 2 of
// Grigoryan 2019) and Gent, Jefferson & Nightingale's "natural" random
// generator ("Complexity of n-Queens Completion", JAIR 59, 2017).
#ifndef NQUEENS_BENCH_COMPOSITIONS_H_
#define NQUEENS_BENCH_COMPOSITIONS_H_

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "nqueens/board.h"

namespace nqueens::bench {

using Random = std::mt19937_64;

// Board sizes given as a flag's list ("100,1000"). Exits the program with
// status 2 and a message on stderr on one that is not a number.
std::vector<uint32_t> ParseSizes(const std::vector<std::string>& texts);

// Uniform in 0 .. bound - 1.
uint32_t Below(uint32_t bound, Random& random);

// `solution` with k rows kept, chosen uniformly at random, the rest emptied.
Columns KeepRandomRows(const Columns& solution, uint32_t k, Random& random);

// Gent et al.'s random generator, part-way: a random free row and a random
// free column are drawn and a queen is put there unless a placed queen shares
// a diagonal. Each placement is thus uniform over the cells still allowed, so
// a copy taken part-way and carried on is drawn from the same distribution as
// a fresh run (bench/hard_instances.cc shares such prefixes at large n).
class NaturalDraw {
 public:
  explicit NaturalDraw(uint32_t n);

  // Places queens until `free_lines` rows (and columns) are left free. False
  // when the run's n^2 draws did not place them all (their generator gives up
  // there too).
  bool PlaceUntil(uint32_t free_lines, Random& random);

  // True when some free row or column has no cell left that no queen attacks:
  // the composition is then unsolvable at a glance. O(d^2) for d free lines.
  bool HasDeadLine() const;

  const Columns& composition() const { return composition_; }

 private:
  bool Allowed(uint32_t row, uint32_t column) const {
    return !difference_taken_[n_ + column - row] && !sum_taken_[row + column];
  }

  uint32_t n_;
  uint64_t draws_ = 0;
  Columns composition_;
  // The free rows and columns; a placement moves the last one into its slot.
  std::vector<uint32_t> free_rows_, free_columns_;
  std::vector<bool> difference_taken_, sum_taken_;
};

// A diagonal of the m x m board: sum diagonals r + c = value, difference
// diagonals r - c = value (0-based r, c).
struct Diagonal {
  bool sum = false;
  int32_t value = 0;
};

// Gent et al.'s Excluded Diagonals generator (queens-diag-gen.py, every row
// and column allowed): the sum and the difference diagonals each in random
// order, a random kind drawn each time; a diagonal is excluded unless that
// leaves a row or column with min_open open cells or fewer. The first
// `count` exclusions form the instance (fewer if the board runs out).
std::vector<Diagonal> ExcludedDiagonals(uint32_t m, uint32_t count, uint32_t min_open,
                                        Random& random);

// Gent et al.'s reduction (their NP-completeness construction, as in
// CSPLib's diagtoqueens.py) from Excluded Diagonals on the m x m board to
// n-Queens Completion: the completions correspond one to one to the
// solutions of the m x m problem, whose m free rows are x = 3m-2 .. 4m-3
// (compositions.cc has the construction).
Columns ExcludedDiagonalsAsCompletion(uint32_t m, const std::vector<Diagonal>& excluded);

}  // namespace nqueens::bench

#endif  // NQUEENS_BENCH_COMPOSITIONS_H_
