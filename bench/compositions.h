// The benchmarks' inputs: compositions drawn from solutions (Table 2 of
// Grigoryan 2019) and Gent, Jefferson & Nightingale's "natural" random
// generator ("Complexity of n-Queens Completion", JAIR 59, 2017).
#ifndef NQUEENS_BENCH_COMPOSITIONS_H_
#define NQUEENS_BENCH_COMPOSITIONS_H_

#include <cstdint>
#include <optional>
#include <random>

#include "nqueens/board.h"

namespace nqueens::bench {

using Random = std::mt19937_64;

// Uniform in 0 .. bound - 1.
uint32_t Below(uint32_t bound, Random& random);

// `solution` with k rows kept, chosen uniformly at random, the rest emptied.
Columns KeepRandomRows(const Columns& solution, uint32_t k, Random& random);

// Gent et al.'s random generator: k queens on random free rows and columns,
// skipping cells on a taken diagonal. nullopt when n^2 draws did not place
// them all (their generator gives up there too).
std::optional<Columns> RandomComposition(uint32_t n, uint32_t k, Random& random);

// True when some empty row or free column has no cell left that no queen
// attacks: such a composition is unsolvable at a glance. O(n + d^2).
bool HasDeadLine(const Columns& composition);

}  // namespace nqueens::bench

#endif  // NQUEENS_BENCH_COMPOSITIONS_H_
