// The classic explicit construction (Hoffman, Loessi and Moore 1969; see
// shared/papers/000_*.txt): the even columns in order, then the odd ones, with
// two small rearrangements for n mod 6 == 2 and n mod 6 == 3, where the plain
// order puts queens on a common diagonal.
#include <cstdint>
#include <optional>

#include "nqueens/solver.h"

namespace nqueens {
namespace {

// Appends first, first + 2, ..., up to last inclusive (nothing if first > last).
void AppendEveryOther(uint32_t first, uint32_t last, Columns& columns) {
  for (uint64_t column = first; column <= last; column += 2) {
    columns.push_back(static_cast<uint32_t>(column));
  }
}

}  // namespace

std::optional<Columns> ConstructSolution(uint32_t n) {
  if (n == 1) return Columns{1};
  if (n < 4) return std::nullopt;
  // Row i + 1 gets columns[i]; the columns are written in one sequential pass.
  Columns columns;
  columns.reserve(n);
  const uint32_t last_even = n % 2 == 0 ? n : n - 1;
  const uint32_t last_odd = n % 2 == 1 ? n : n - 1;
  switch (n % 6) {
    case 2:  // evens; then 3, 1, the odds from 7, and 5 last
      AppendEveryOther(2, last_even, columns);
      columns.push_back(3);
      columns.push_back(1);
      AppendEveryOther(7, last_odd, columns);
      columns.push_back(5);
      break;
    case 3:  // the evens from 4, then 2; the odds from 5, then 1 and 3
      AppendEveryOther(4, last_even, columns);
      columns.push_back(2);
      AppendEveryOther(5, last_odd, columns);
      columns.push_back(1);
      columns.push_back(3);
      break;
    default:  // the evens, then the odds
      AppendEveryOther(2, last_even, columns);
      AppendEveryOther(1, last_odd, columns);
      break;
  }
  return columns;
}

}  // namespace nqueens
