// The classic explicit construction (E. J. Hoffman, J. C. Loessi and R. C.
// Moore, "Constructions for the Solution of the m Queens Problem", Mathematics
// Magazine 42(2), 1969): the even columns in order, then the odd ones, with
// two small rearrangements for n mod 6 == 2 and n mod 6 == 3, where the plain
// order puts queens on a common diagonal.
#include "methods/construction.h"

#include <cstdint>
#include <optional>

#include "base/huge_pages.h"
#include "nqueens/solver.h"

namespace nqueens {
namespace internal {

uint32_t ConstructedColumn(uint32_t n, uint32_t row) {
  if (n == 1) return 1;
  const uint32_t half = n / 2;
  switch (n % 6) {
    case 2:  // 2, 4, ..., n; then 3, 1, the odds from 7 to n - 1, and 5 last
      if (row <= half) return 2 * row;
      if (row == half + 1) return 3;
      if (row == half + 2) return 1;
      if (row == n) return 5;
      return 2 * (row - half) + 1;
    case 3:  // 4, 6, ..., n - 1, then 2; 5, 7, ..., n, then 1 and 3
      if (row < half) return 2 * row + 2;
      if (row == half) return 2;
      if (row == n - 1) return 1;
      if (row == n) return 3;
      return 2 * (row - half) + 3;
    default:  // 2, 4, ...; then 1, 3, ...
      return row <= half ? 2 * row : 2 * (row - half) - 1;
  }
}

absl::StatusOr<Columns> Construct(uint32_t n, StopPoller& stop) {
  Columns columns;
  // Appended to, so that each page is written once; in huge pages, which
  // fault in and are freed faster (huge_pages.h).
  ReserveHuge(columns, n);
  const auto write = [n, &columns](size_t first, size_t last) {
    for (size_t row = first; row < last; ++row) {
      columns.push_back(ConstructedColumn(n, static_cast<uint32_t>(row)));
    }
  };
  const bool done = RunInStretches(1, size_t{n} + 1, stop, write);
  if (!done) return stop.status();
  return columns;
}

}  // namespace internal

std::optional<Columns> ConstructSolution(uint32_t n) {
  if (n == 0 || n == 2 || n == 3) return std::nullopt;
  const StopCondition never;
  internal::StopPoller stop(never);
  return *internal::Construct(n, stop);
}

}  // namespace nqueens
