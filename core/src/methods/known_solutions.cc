#include "methods/known_solutions.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <optional>
#include <vector>

#include "base/huge_pages.h"
#include "methods/construction.h"
#include "methods/formula.h"
#include "methods/modular_fit.h"

namespace nqueens::internal {
namespace {

// One symmetry of the square, as the map from a board cell (r, c) to the cell
// of the construction it must match: optionally mirror the row, mirror the
// column, then swap the two.
struct Symmetry {
  bool mirror_row, mirror_column, transpose;
};

constexpr std::array<Symmetry, 8> kSymmetries = {{{false, false, false},
                                                  {false, true, false},
                                                  {true, false, false},
                                                  {true, true, false},
                                                  {false, false, true},
                                                  {false, true, true},
                                                  {true, false, true},
                                                  {true, true, true}}};

// The placements of the n x n board that every image is tried of: the
// explicit construction and prototypes 1 and 2 of the explicit families
// (prototypes 3 and 4 are the construction's own rows).
constexpr uint32_t kPlacements = 3;

bool PlacementExists(uint32_t placement, uint32_t n) {
  return placement == 0 ? n == 1 || n >= 4 : PrototypeExists(placement, n);
}

uint32_t PlacementColumn(uint32_t placement, uint32_t n, uint32_t row) {
  return placement == 0 ? ConstructedColumn(n, row) : PrototypeColumn(placement, n, row);
}

// Candidate i: placement i / 8 under symmetry i % 8.
constexpr size_t kCandidates = kPlacements * kSymmetries.size();

bool Fits(uint32_t n, uint32_t row, uint32_t column, size_t candidate) {
  const uint32_t placement = static_cast<uint32_t>(candidate / kSymmetries.size());
  const Symmetry& s = kSymmetries[candidate % kSymmetries.size()];
  const uint32_t r = s.mirror_row ? n + 1 - row : row;
  const uint32_t c = s.mirror_column ? n + 1 - column : column;
  return s.transpose ? PlacementColumn(placement, n, c) == r
                     : PlacementColumn(placement, n, r) == c;
}

// The image of a candidate: cell (x, y) of its placement, with r and c undone
// as Fits() applies them. The poller's status once it fires.
absl::StatusOr<Columns> Image(uint32_t n, size_t candidate, StopPoller& stop) {
  const uint32_t placement = static_cast<uint32_t>(candidate / kSymmetries.size());
  const Symmetry& s = kSymmetries[candidate % kSymmetries.size()];
  Columns board;
  ReserveHuge(board, n);
  if (!AppendPolled(board, n, kEmptyRow, stop)) return stop.status();
  const bool done = RunInStretches(1, size_t{n} + 1, stop, [&](size_t first, size_t last) {
    for (uint32_t x = static_cast<uint32_t>(first); x < last; ++x) {
      const uint32_t y = PlacementColumn(placement, n, x);
      const uint32_t r = s.transpose ? y : x;
      const uint32_t c = s.transpose ? x : y;
      const uint32_t row = s.mirror_row ? n + 1 - r : r;
      board[row - 1] = s.mirror_column ? n + 1 - c : c;
    }
  });
  if (!done) return stop.status();
  return board;
}

// Indexed by candidate: whether the composition still fits it.
using Alive = std::array<bool, kCandidates>;

// Rules out the candidates that the queens of rows [first, last) do not fit;
// returns how many are left.
size_t RuleOut(const Columns& composition, size_t first, size_t last, Alive& alive,
               size_t alive_count) {
  const uint32_t n = static_cast<uint32_t>(composition.size());
  for (size_t row = first; row < last && alive_count > 0; ++row) {
    const uint32_t column = composition[row - 1];
    if (column == kEmptyRow) continue;
    for (size_t i = 0; i < kCandidates; ++i) {
      if (alive[i] && !Fits(n, static_cast<uint32_t>(row), column, i)) {
        alive[i] = false;
        --alive_count;
      }
    }
  }
  return alive_count;
}

absl::StatusOr<std::optional<Columns>> CompleteFromModular(const Columns& composition,
                                                           StopPoller& stop) {
  const uint64_t n = composition.size();
  if (n < 5) return std::nullopt;
  ModularFit fit(n);
  for (size_t first = 1; first <= n; first += StopPoller::kRowsPerPoll) {
    if (stop.CheckNow()) return stop.status();
    const size_t last = std::min<size_t>(n + 1, first + StopPoller::kRowsPerPoll);
    for (size_t row = first; row < last; ++row) {
      if (composition[row - 1] != kEmptyRow && !fit.Add(row, composition[row - 1])) {
        return std::nullopt;
      }
    }
  }
  const std::optional<Modular> modular = fit.Solution();
  if (!modular.has_value()) return std::nullopt;
  Columns board;
  ReserveHuge(board, n);
  const bool done = RunInStretches(1, n + 1, stop, [&](size_t first, size_t last) {
    uint64_t residue = (modular->shift + modular->step * first) % n;
    for (size_t row = first; row < last; ++row) {
      board.push_back(static_cast<uint32_t>(residue + 1));
      residue += modular->step;
      if (residue >= n) residue -= n;
    }
  });
  if (!done) return stop.status();
  return board;
}

}  // namespace

absl::StatusOr<std::optional<Columns>> CompleteFromKnownSolution(const Columns& composition,
                                                                 StopPoller& stop) {
  const uint32_t n = static_cast<uint32_t>(composition.size());
  // One pass for all candidates: most inputs rule every one out at the first
  // queen.
  Alive alive;
  size_t alive_count = 0;
  for (size_t i = 0; i < kCandidates; ++i) {
    alive[i] = PlacementExists(static_cast<uint32_t>(i / kSymmetries.size()), n);
    alive_count += alive[i];
  }
  for (size_t first = 1; first <= n && alive_count > 0; first += StopPoller::kRowsPerPoll) {
    if (stop.CheckNow()) return stop.status();
    const size_t last = std::min<size_t>(size_t{n} + 1, first + StopPoller::kRowsPerPoll);
    alive_count = RuleOut(composition, first, last, alive, alive_count);
  }
  for (size_t i = 0; i < kCandidates; ++i) {
    if (alive[i]) return Image(n, i, stop);
  }
  absl::StatusOr<std::optional<Columns>> modular = CompleteFromModular(composition, stop);
  if (!modular.ok() || modular->has_value()) return modular;
  return CompleteFromProduct(composition, stop);
}

}  // namespace nqueens::internal
